package config

import (
	"slices"

	"github.com/tailscale/hujson"

	"github.com/toolhub/toolhub/llm"
)

// Finding the parts of a file that problems stand in, for what the lenient
// reads leave out: the model entries left out, whether a section has a
// problem, and a section blanked in place.

// LeftOutModel is a model entry ReadModelsServe left out, with its
// problems.
type LeftOutModel struct {
	Name     string
	Problems []Problem
}

// leftOutModels names the entries of the file's models section that m
// does not have, each with the problems that stand in it.
func leftOutModels(filename string, data []byte, m *Models, problems []Problem) []LeftOutModel {
	top, ok := topMembers(data)
	i := slices.IndexFunc(top, func(m hujson.ObjectMember) bool { return memberName(&m) == "models" })
	if !ok || i < 0 {
		return nil
	}
	entries, ok := top[i].Value.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	l := &problemList{file: filename, src: data}
	var out []LeftOutModel
	for j := range entries.Members {
		e := &entries.Members[j]
		name := memberName(e)
		if slices.ContainsFunc(m.Endpoints, func(ep llm.ModelEndpoint) bool { return ep.Name == name }) {
			continue
		}
		left := LeftOutModel{Name: name}
		for _, p := range problems {
			if l.spanOf(e).holds(p) {
				left.Problems = append(left.Problems, p)
			}
		}
		if len(left.Problems) > 0 {
			out = append(out, left)
		}
	}
	return out
}

// problemIn reports whether one of problems stands in a top-level member
// named section.
func problemIn(filename string, data []byte, section string, problems []Problem) bool {
	top, _ := topMembers(data)
	l := &problemList{file: filename, src: data}
	return slices.ContainsFunc(top, func(m hujson.ObjectMember) bool {
		return memberName(&m) == section && slices.ContainsFunc(problems, l.spanOf(&m).holds)
	})
}

// blankSections returns data with the value of every top-level member
// named section whose span holds a problem replaced by an empty object, its
// other bytes by spaces and its line breaks kept, so that everything else
// stays at its line and column. ok is false when a problem stands in no
// such member.
func blankSections(filename string, data []byte, section string, problems []Problem) ([]byte, bool) {
	top, ok := topMembers(data)
	if !ok {
		return nil, false
	}
	l := &problemList{file: filename, src: data}
	out := slices.Clone(data)
	blanked := map[int]bool{}
	for _, p := range problems {
		i := slices.IndexFunc(top, func(m hujson.ObjectMember) bool {
			return memberName(&m) == section && l.spanOf(&m).holds(p)
		})
		if i < 0 {
			return nil, false
		}
		if blanked[i] {
			continue
		}
		blanked[i] = true
		v := &top[i].Value
		start := v.StartOffset
		if v.EndOffset-start < 2 { // a one-digit number: take the blank before it
			if start == 0 || (out[start-1] != ' ' && out[start-1] != '\t') {
				return nil, false
			}
			start--
		}
		for j := start; j < v.EndOffset; j++ {
			if out[j] != '\n' && out[j] != '\r' {
				out[j] = ' '
			}
		}
		out[start], out[start+1] = '{', '}'
	}
	return out, true
}

// topMembers parses data and returns its top-level members; false when it
// is not a JSON object.
func topMembers(data []byte) ([]hujson.ObjectMember, bool) {
	root, err := hujson.Parse(data)
	if err != nil {
		return nil, false
	}
	top, ok := root.Value.(*hujson.Object)
	if !ok {
		return nil, false
	}
	return top.Members, true
}
