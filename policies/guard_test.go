package policies

import (
	"slices"
	"testing"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

func guardTool(server, name string, loc hub.Locality) *hub.Tool {
	return &hub.Tool{Name: server + "__" + name, Server: server, RawTool: hub.RawTool{Name: name}, Locality: loc}
}

func guardModel(name string, loc hub.Locality, roles ...string) llm.ModelInfo {
	return llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{Name: name, Locality: loc, Roles: roles}}
}

// guardScope: a local and a remote tool of the same job, a remote-only tool,
// local documents search and web search, a local answer model, a remote
// search+answer model, a remote model without roles, and a remote
// orchestrator.
func guardScope() GuardScope {
	return GuardScope{
		Tools: []*hub.Tool{
			guardTool("fs", "read_file", hub.LocalityLocal),
			guardTool("cloudfs", "read_file", hub.LocalityRemote),
			guardTool("mail", "send", hub.LocalityRemote),
			{Name: "search_documents", Server: "search_documents", RawTool: hub.RawTool{Name: "search_documents"}, Locality: hub.LocalityLocal},
			{Name: "web_search", Server: "web_search", RawTool: hub.RawTool{Name: "web_search"}, Locality: hub.LocalityRemote},
		},
		Models: []llm.ModelInfo{
			guardModel("orch", hub.LocalityRemote),
			guardModel("qwen", hub.LocalityLocal, RoleAnswer),
			guardModel("gpt", hub.LocalityRemote, RoleSearch, RoleAnswer),
			guardModel("plain", hub.LocalityRemote),
			guardModel("unset", ""),
		},
		Orchestrator: "orch",
	}
}

func TestGuardTools(t *testing.T) {
	cases := []struct {
		name    string
		prefs   Preferences
		allowed []string
	}{
		{"any allows all", Unrestricted(), []string{"fs__read_file", "cloudfs__read_file", "mail__send", "search_documents", "web_search"}},
		{"local-only keeps local", Preferences{Privacy: PrivacyLocalOnly}, []string{"fs__read_file", "search_documents"}},
		{"prefer-local hides remote twins", Preferences{Privacy: PrivacyPreferLocal}, []string{"fs__read_file", "mail__send", "search_documents"}},
		{"prefer-local keeps a remote twin of an off local tool", Preferences{Privacy: PrivacyPreferLocal,
			Tools: map[string]Weight{"fs__read_file": WeightOff, "search_documents": WeightOff}},
			[]string{"cloudfs__read_file", "mail__send", "web_search"}},
		{"off by name and by server", Preferences{Privacy: PrivacyAny,
			Tools: map[string]Weight{"mail__send": WeightOff, "cloudfs__*": WeightOff, "fs__read_file": WeightAvoid}},
			[]string{"fs__read_file", "search_documents", "web_search"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			scope := guardScope()
			g := NewGuard(tc.prefs, scope)
			var got []string
			for _, tool := range scope.Tools {
				if ok, reason := g.AllowTool(tool); ok {
					got = append(got, tool.Name)
				} else if reason == "" {
					t.Errorf("%s refused without a reason", tool.Name)
				}
			}
			if !slices.Equal(got, tc.allowed) {
				t.Fatalf("allowed %v, want %v", got, tc.allowed)
			}
		})
	}
}

func TestGuardModels(t *testing.T) {
	cases := []struct {
		name    string
		prefs   Preferences
		allowed map[string][]string // endpoint → roles offered
	}{
		{"any", Unrestricted(), map[string][]string{"orch": nil, "qwen": {RoleAnswer}, "gpt": {RoleSearch, RoleAnswer}, "plain": nil, "unset": nil}},
		{"local-only refuses remote, unset and the orchestrator", Preferences{Privacy: PrivacyLocalOnly},
			map[string][]string{"qwen": {RoleAnswer}}},
		{"prefer-local keeps the remote for the role local lacks", Preferences{Privacy: PrivacyPreferLocal},
			map[string][]string{"orch": nil, "qwen": {RoleAnswer}, "gpt": {RoleSearch}}},
		{"prefer-local with the local model off", Preferences{Privacy: PrivacyPreferLocal, Models: map[string]Weight{"qwen": WeightOff}},
			map[string][]string{"orch": nil, "gpt": {RoleSearch, RoleAnswer}, "plain": nil, "unset": nil}},
		{"off model", Preferences{Privacy: PrivacyAny, Models: map[string]Weight{"gpt": WeightOff, "orch": WeightOff}},
			map[string][]string{"qwen": {RoleAnswer}, "plain": nil, "unset": nil}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			scope := guardScope()
			g := NewGuard(tc.prefs, scope)
			got := map[string][]string{}
			for _, m := range scope.Models {
				if ok, _ := g.AllowModel(m); ok {
					got[m.Name] = g.ModelRoles(m)
				}
			}
			if len(got) != len(tc.allowed) {
				t.Fatalf("allowed %v, want %v", got, tc.allowed)
			}
			for name, roles := range tc.allowed {
				if have, ok := got[name]; !ok || !slices.Equal(have, roles) {
					t.Fatalf("%s: allowed %v with roles %v, want %v", name, ok, have, roles)
				}
			}
		})
	}
}
