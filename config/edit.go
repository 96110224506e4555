package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// editor adds members to a parsed JSONC document without disturbing the
// rest of it: comments, blank lines, indentation and key order stay as the
// user wrote them. Members are added with RFC 6902 "add" patches; the
// whitespace around each new member is then set to match its neighbours.
type editor struct {
	root *hujson.Value
	unit string // one level of indentation, as the file uses it
}

func newEditor(root *hujson.Value) (*editor, error) {
	obj, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, errors.New("the config is not a JSON object")
	}
	unit := "  "
	if len(obj.Members) > 0 {
		if ind, ok := lineIndent(obj.Members[0].Name.BeforeExtra); ok && ind != "" {
			unit = ind
		}
	}
	return &editor{root: root, unit: unit}, nil
}

// servers returns the "mcpServers" object, adding an empty one if missing.
func (e *editor) servers() (*hujson.Object, error) {
	if v := e.root.Find("/mcpServers"); v != nil {
		obj, ok := v.Value.(*hujson.Object)
		if !ok {
			return nil, errors.New(`"mcpServers" is not a JSON object`)
		}
		return obj, nil
	}
	if err := e.add("", "mcpServers", []byte("{}")); err != nil {
		return nil, err
	}
	return e.root.Find("/mcpServers").Value.(*hujson.Object), nil
}

// addServer appends server s as name to "mcpServers".
func (e *editor) addServer(name string, s Server) error {
	obj, err := e.servers()
	if err != nil {
		return err
	}
	indent, inline := e.memberIndent(obj, "/mcpServers")
	body, err := marshalServer(s, indent, e.unit, inline)
	if err != nil {
		return err
	}
	return e.add("/mcpServers", name, body)
}

// add appends member name with value body to the object at pointer parent.
func (e *editor) add(parent, name string, body []byte) error {
	obj := e.root.Value.(*hujson.Object)
	if parent != "" {
		obj = e.root.Find(parent).Value.(*hujson.Object)
	}
	indent, inline := e.memberIndent(obj, parent)
	closeIndent := e.keyIndent(parent)
	n := len(obj.Members)
	trailingComma := n > 0 && obj.Members[n-1].Value.AfterExtra != nil
	after := obj.AfterExtra

	pointer, err := json.Marshal(parent + "/" + escapePointer(name))
	if err != nil {
		return fmt.Errorf("encoding patch: %w", err)
	}
	// Written by hand: encoding/json would compact body and escape & < >.
	patch := `[{"op": "add", "path": ` + string(pointer) + `, "value": ` + string(body) + `}]`
	if err := e.root.Patch([]byte(patch)); err != nil {
		return fmt.Errorf("adding %q: %w", name, err)
	}
	added := &obj.Members[len(obj.Members)-1]
	added.Value.BeforeExtra = colonSpace(obj)
	if trailingComma {
		added.Value.AfterExtra = hujson.Extra{}
	}
	if inline {
		added.Name.BeforeExtra, obj.AfterExtra = hujson.Extra(" "), after
		return nil
	}
	added.Name.BeforeExtra = hujson.Extra(string(trimRightSpace(after)) + "\n" + indent)
	obj.AfterExtra = hujson.Extra("\n" + closeIndent)
	return nil
}

// colonSpace returns what the object's members have between colon and
// value, or one space.
func colonSpace(obj *hujson.Object) hujson.Extra {
	if first := obj.Members[0].Value.BeforeExtra; len(obj.Members) > 1 && first.IsStandard() {
		return first
	}
	return hujson.Extra(" ")
}

// memberIndent returns the indentation of the members of obj (found at
// pointer ptr), and whether the object is written on one line.
func (e *editor) memberIndent(obj *hujson.Object, ptr string) (indent string, inline bool) {
	if len(obj.Members) > 0 {
		ind, ok := lineIndent(obj.Members[0].Name.BeforeExtra)
		return ind, !ok
	}
	return e.keyIndent(ptr) + e.unit, false
}

// keyIndent returns the indentation of the key that holds the value at ptr
// ("" for the root).
func (e *editor) keyIndent(ptr string) string {
	if ptr == "" {
		return ""
	}
	obj := e.root.Value.(*hujson.Object)
	for _, m := range obj.Members {
		if "/"+escapePointer(m.Name.Value.(hujson.Literal).String()) == ptr {
			ind, _ := lineIndent(m.Name.BeforeExtra)
			return ind
		}
	}
	return ""
}

// lineIndent returns the whitespace after the last newline of extra, and
// false when extra has no newline.
func lineIndent(extra hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(extra, '\n')
	if i < 0 {
		return "", false
	}
	tail := extra[i+1:]
	return string(tail[:len(tail)-len(bytes.TrimLeft(tail, " \t"))]), true
}

func trimRightSpace(b []byte) []byte {
	return bytes.TrimRight(b, " \t\r\n")
}

// escapePointer escapes a JSON pointer segment (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
