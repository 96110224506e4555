package config

import (
	"errors"
	"slices"

	"github.com/tailscale/hujson"
)

// Running the hub, a part of the file with a problem is left out and the
// rest is read, as a server entry with problems is kept aside
// (ParseServe). The parts are a model entry, one key of the orchestrator
// section, and the python, webSearch and documents sections whole.

// ReadModelsServe is ReadModels for running the hub: a model entry with a
// problem is left out, an orchestrator key with one keeps its default (a
// problem of the orchestrator section as a whole, such as a baseUrl that
// is not an http(s) URL, leaves the whole section at its defaults), and
// the problems are returned beside what was read. A file with a problem in
// no such part is an error, as from ReadModels.
func ReadModelsServe(filename string, data []byte) (*Models, []Problem, error) {
	m, problems, parts, err := readPruned(filename, data, ReadModels, map[string]bool{"models": true, "orchestrator": true})
	if m != nil {
		m.LeftOut = leftOutModels(parts, m.Endpoints)
	}
	return m, problems, err
}

// ReadBuiltinToolsServe is ReadBuiltinTools for running the hub: a python
// or webSearch section with a problem is left out and its tool is not
// offered (python's default is on, but a section that may have said
// "enabled": false must not turn a code interpreter on), and the problems
// are returned beside what was read.
func ReadBuiltinToolsServe(filename string, data []byte) (*BuiltinTools, []Problem, error) {
	b, problems, parts, err := readPruned(filename, data, ReadBuiltinTools, map[string]bool{"python": false, "webSearch": false})
	if b != nil && slices.ContainsFunc(parts, func(p leftPart) bool { return p.section == "python" }) {
		b.Python.Disabled = true
	}
	return b, problems, err
}

// readPruned reads data with read; when that finds problems, every part
// they stand in is left out and the rest read again. sections names the
// top-level keys whose parts are their members (true) or the section
// whole (false). It returns the problems and the parts left out.
func readPruned[T any](filename string, data []byte, read func(string, []byte) (*T, error),
	sections map[string]bool,
) (*T, []Problem, []leftPart, error) {
	out, err := read(filename, data)
	var pe *ProblemsError
	if err == nil || !errors.As(err, &pe) {
		return out, nil, nil, err
	}
	root, perr := hujson.Parse(data)
	if perr != nil {
		return nil, nil, nil, err
	}
	l := &problemList{file: filename, src: data}
	parts, ok := leaveOut(l, &root, sections, pe.Problems)
	if !ok {
		return nil, nil, nil, err
	}
	out, again := read(filename, root.Pack())
	if again != nil {
		return nil, nil, nil, err
	}
	return out, pe.Problems, parts, nil
}

// span is where a part stands in the file: from its key to the end of its
// value.
type span struct{ start, end position }

func (l *problemList) spanOf(m *hujson.ObjectMember) span {
	return span{l.pos(m.Name.StartOffset), l.pos(m.Value.EndOffset)}
}

func (s span) holds(p Problem) bool {
	at := position{p.Line, p.Col}
	return p.Line > 0 && !at.before(s.start) && at.before(s.end)
}

func (p position) before(q position) bool {
	return p.line < q.line || p.line == q.line && p.col < q.col
}

// leftPart is a part leaveOut left out: a top-level section whole (member
// "") or one member of it, with the problems that stand in it.
type leftPart struct {
	section, member string
	problems        []Problem
}

// leaveOut removes from root the part each problem stands in: a member of
// a section split by member, else the section whole, and returns those
// parts in the order of their first problem. It reports false when a
// problem stands in no part.
func leaveOut(l *problemList, root *hujson.Value, sections map[string]bool, problems []Problem) ([]leftPart, bool) {
	top, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, false
	}
	type at struct{ i, j int } // member j of top-level member i; j -1: i whole
	var order []at
	found := map[at]*leftPart{}
	for _, p := range problems {
		i := slices.IndexFunc(top.Members, func(m hujson.ObjectMember) bool {
			_, known := sections[memberName(&m)]
			return known && l.spanOf(&m).holds(p)
		})
		if i < 0 {
			return nil, false
		}
		k := at{i, -1}
		section := memberName(&top.Members[i])
		part := leftPart{section: section}
		if obj, isObj := top.Members[i].Value.Value.(*hujson.Object); isObj && sections[section] {
			if j := slices.IndexFunc(obj.Members, func(m hujson.ObjectMember) bool { return l.spanOf(&m).holds(p) }); j >= 0 {
				k, part.member = at{i, j}, memberName(&obj.Members[j])
			}
		}
		if found[k] == nil {
			order, found[k] = append(order, k), &part
		}
		found[k].problems = append(found[k].problems, p)
	}
	dropTop, dropIn := map[int]bool{}, map[int]map[int]bool{}
	parts := make([]leftPart, len(order))
	for n, k := range order {
		parts[n] = *found[k]
		if k.j < 0 {
			dropTop[k.i] = true
			continue
		}
		if dropIn[k.i] == nil {
			dropIn[k.i] = map[int]bool{}
		}
		dropIn[k.i][k.j] = true
	}
	for i, js := range dropIn {
		obj := top.Members[i].Value.Value.(*hujson.Object)
		obj.Members = deleteIndexes(obj.Members, js)
	}
	top.Members = deleteIndexes(top.Members, dropTop)
	return parts, true
}

func memberName(m *hujson.ObjectMember) string {
	if lit, ok := m.Name.Value.(hujson.Literal); ok {
		return lit.String()
	}
	return ""
}

func deleteIndexes(members []hujson.ObjectMember, drop map[int]bool) []hujson.ObjectMember {
	out := members[:0]
	for i, m := range members {
		if !drop[i] {
			out = append(out, m)
		}
	}
	return out
}

// CheckSections reports every problem of the sections the hub reads beside
// the servers (models, orchestrator, python, webSearch), as ReadModels and
// ReadBuiltinTools find them, in one *ProblemsError; nil when there is
// none. Running the hub leaves those parts out; config check names them.
func CheckSections(filename string, data []byte) error {
	_, models := ReadModels(filename, data)
	_, tools := ReadBuiltinTools(filename, data)
	return MergeProblems(models, tools)
}

// MergeProblems joins the problems of several reads of one file into one
// *ProblemsError, in file order, each problem once. An error that is not a
// *ProblemsError is returned as it is; nil errors are skipped.
func MergeProblems(errs ...error) error {
	var all []Problem
	for _, err := range errs {
		var pe *ProblemsError
		switch {
		case err == nil:
		case errors.As(err, &pe):
			for _, p := range pe.Problems {
				if !slices.Contains(all, p) {
					all = append(all, p)
				}
			}
		default:
			return err
		}
	}
	if len(all) == 0 {
		return nil
	}
	sortProblems(all)
	return &ProblemsError{Problems: all}
}
