package config

import (
	"encoding/json"
	"strconv"

	"github.com/tailscale/hujson"
)

// decoder turns parts of a hujson syntax tree into Go values, recording a
// problem (with the value's position) for every value of the wrong type.
// Each method returns ok=false when it recorded a problem.
type decoder struct {
	*problemList
}

// readTopLevel parses one section reader's view of a configuration: the
// members of the top-level object, and the decoder that collects problems.
// ok is false when the source does not parse at all.
func readTopLevel(filename string, data []byte) (d decoder, members []member, ok bool) {
	d = decoder{&problemList{file: filename, src: data}}
	root, ok := parseTree(d.problemList, data)
	if !ok {
		return d, nil, false
	}
	members, _ = d.object(&root, "")
	return d, members, true
}

// member is one object member whose name is known to be unique.
type member struct {
	key     string
	keyAt   int // offset of the key
	value   *hujson.Value
	valueAt int
}

// object returns the members of an object value, reporting duplicate keys
// (only the first of each name is returned).
func (d decoder) object(v *hujson.Value, what string) ([]member, bool) {
	all, ok := d.members(v, what)
	if !ok {
		return nil, false
	}
	seen := make(map[string]int, len(all))
	out := make([]member, 0, len(all))
	for _, m := range all {
		if first, dup := seen[m.key]; dup {
			d.duplicate(m, first, what)
			continue
		}
		seen[m.key] = m.keyAt
		out = append(out, m)
	}
	return out, true
}

// members returns every member of an object value, duplicate keys
// included.
func (d decoder) members(v *hujson.Value, what string) ([]member, bool) {
	obj, isObj := v.Value.(*hujson.Object)
	if !isObj {
		d.wrongType(v, what, "an object")
		return nil, false
	}
	out := make([]member, 0, len(obj.Members))
	for i := range obj.Members {
		m := &obj.Members[i]
		key := m.Name.Value.(hujson.Literal).String()
		out = append(out, member{key: key, keyAt: m.Name.StartOffset, value: &m.Value, valueAt: m.Value.StartOffset})
	}
	return out, true
}

// duplicate reports m's key as given again, first at offset firstAt.
func (d decoder) duplicate(m member, firstAt int, what string) {
	p := d.pos(firstAt)
	d.at(m.keyAt, "%sduplicate key %q (first at line %d, column %d)", prefix(what), m.key, p.line, p.col)
}

func (d decoder) str(v *hujson.Value, what string) (string, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		d.wrongType(v, what, "a string")
		return "", false
	}
	return lit.String(), true
}

// boolean decodes true or false; anything else is a problem and false.
func (d decoder) boolean(v *hujson.Value, what string) bool {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || (lit.Kind() != 't' && lit.Kind() != 'f') {
		d.wrongType(v, what, "true or false")
		return false
	}
	return lit.Bool()
}

// number decodes any JSON number.
func (d decoder) number(v *hujson.Value, what string) (float64, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		d.wrongType(v, what, "a number")
		return 0, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		d.at(v.StartOffset, "%snumber %s is out of range", prefix(what), lit)
		return 0, false
	}
	return f, true
}

// count decodes a JSON number that must be a whole number >= 0.
func (d decoder) count(v *hujson.Value, what string) (int64, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		d.wrongType(v, what, "a whole number")
		return 0, false
	}
	n, err := strconv.ParseInt(string(lit), 10, 64)
	if err != nil || n < 0 {
		d.at(v.StartOffset, "%swant a whole number >= 0, got %s", prefix(what), lit)
		return 0, false
	}
	return n, true
}

// strList decodes an array of strings.
func (d decoder) strList(v *hujson.Value, what string) ([]string, bool) {
	arr, isArr := v.Value.(*hujson.Array)
	if !isArr {
		d.wrongType(v, what, "an array of strings")
		return nil, false
	}
	out := make([]string, 0, len(arr.Elements))
	ok := true
	for i := range arr.Elements {
		s, good := d.str(&arr.Elements[i], what+"["+strconv.Itoa(i)+"]")
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// strMap decodes an object whose values are all strings, with the offset
// of each value; a value of another type is a problem and kept as "".
func (d decoder) strMap(v *hujson.Value, what string) (map[string]string, map[string]int) {
	members, ok := d.object(v, what)
	if !ok {
		return nil, nil
	}
	out := make(map[string]string, len(members))
	offsets := make(map[string]int, len(members))
	for _, m := range members {
		s, _ := d.str(m.value, what+"."+m.key)
		out[m.key] = s
		offsets[m.key] = m.valueAt
	}
	return out, offsets
}

// raw returns a value as standard JSON (comments and trailing commas removed).
func raw(v *hujson.Value) json.RawMessage {
	c := v.Clone()
	c.Minimize()
	return json.RawMessage(c.Pack())
}

func (d decoder) wrongType(v *hujson.Value, what, want string) {
	d.at(v.StartOffset, "%swant %s, got %s", prefix(what), want, kindName(v.Value.Kind()))
}

func kindName(k hujson.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "an array"
	}
	return "an unknown value"
}

// prefix turns a value's description into a message prefix: `what: `.
func prefix(what string) string {
	if what == "" {
		return ""
	}
	return what + ": "
}
