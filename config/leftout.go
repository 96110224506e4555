package config

import (
	"slices"

	"github.com/tailscale/hujson"

	"github.com/toolhub/toolhub/llm"
)

// What the lenient reads leave out: the model entries named for the
// desktop, and a section blanked in place.

// LeftOutModel is a model entry ReadModelsServe left out, with its
// problems.
type LeftOutModel struct {
	Name     string
	Problems []Problem
}

// leftOutModels are the model entries among parts, but for a name kept
// (given twice, the entry read stays and its twin goes).
func leftOutModels(parts []leftPart, kept []llm.ModelEndpoint) []LeftOutModel {
	var out []LeftOutModel
	for _, p := range parts {
		if p.section != "models" || p.member == "" ||
			slices.ContainsFunc(kept, func(ep llm.ModelEndpoint) bool { return ep.Name == p.member }) {
			continue
		}
		out = append(out, LeftOutModel{Name: p.member, Problems: p.problems})
	}
	return out
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
