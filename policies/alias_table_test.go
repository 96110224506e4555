package policies

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

func rosterModel(name string, loc hub.Locality, roles ...string) llm.ModelInfo {
	return llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{Name: name, ModelID: name + "-id", Locality: loc, Roles: roles}}
}

func TestAliasesKeepTheirNumbersWhateverIsWithheld(t *testing.T) {
	cloud := rosterModel("cloud", hub.LocalityRemote, RoleSearch, RoleAnswer)
	local := rosterModel("local", hub.LocalityLocal, RoleSearch, RoleAnswer)
	cloudSearchOnly := cloud
	cloudSearchOnly.Roles = []string{RoleSearch}
	why := map[string]string{"cloud": "remote, and privacy is local-only"}
	cases := []struct {
		name         string
		roster       []llm.ModelInfo
		offered      []llm.ModelInfo
		wantAliases  string // alias=endpoint, in order
		wantWithheld map[string]string
	}{
		{"everything offered", []llm.ModelInfo{cloud, local}, []llm.ModelInfo{cloud, local},
			"search-1=cloud search-2=local answer-1=cloud answer-2=local", map[string]string{}},
		{"the first model withheld keeps its numbers", []llm.ModelInfo{cloud, local}, []llm.ModelInfo{local},
			"search-2=local answer-2=local", map[string]string{"search-1": why["cloud"], "answer-1": why["cloud"]}},
		{"a role the guard took away", []llm.ModelInfo{cloud, local}, []llm.ModelInfo{cloudSearchOnly, local},
			"search-1=cloud search-2=local answer-2=local", map[string]string{"answer-1": reasonRoleWithheld}},
		{"no roster numbers the offered models", nil, []llm.ModelInfo{local},
			"search-1=local answer-1=local", map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			table := aliasesFor(tc.roster, tc.offered, why, RoleSearch, RoleAnswer)
			var got []string
			for _, a := range table.aliases {
				got = append(got, a.Name+"="+table.endpoint[a.Name])
			}
			if strings.Join(got, " ") != tc.wantAliases {
				t.Errorf("aliases %q, want %q", strings.Join(got, " "), tc.wantAliases)
			}
			if len(table.withheld) != len(tc.wantWithheld) {
				t.Fatalf("withheld %v, want %v", table.withheld, tc.wantWithheld)
			}
			for alias, reason := range tc.wantWithheld {
				if table.withheld[alias] != reason {
					t.Errorf("withheld %s: %q, want %q", alias, table.withheld[alias], reason)
				}
			}
		})
	}
}

func TestExplainNamesTheRuleOfAWithheldAlias(t *testing.T) {
	table := aliasTable{withheld: map[string]string{"answer-1": "remote, and privacy is local-only", "answer-3": ""}}
	got := table.explain([]Rejection{
		{Name: "answer", Reason: `alias "answer-1" is not offered for answer`, Alias: "answer-1"},
		{Name: "answer", Reason: `alias "answer-3" is not offered for answer`, Alias: "answer-3"},
		{Name: "answer", Reason: `alias "gpt-5" is not offered for answer`, Alias: "gpt-5"},
		{Name: "web_browse", Reason: `unknown tool "web_browse"`},
	})
	want := []string{
		`alias "answer-1" is not offered for answer: remote, and privacy is local-only`,
		`alias "answer-3" is not offered for answer: the preferences withhold its model`,
		`alias "gpt-5" is not offered for answer`,
		`unknown tool "web_browse"`,
	}
	for i, r := range got {
		if r.Reason != want[i] {
			t.Errorf("rejection %d: %q, want %q", i, r.Reason, want[i])
		}
	}
}

func TestSentenceNumbersOverTheRoster(t *testing.T) {
	cloud := rosterModel("cloud", hub.LocalityRemote, RoleAnswer, RoleExpert)
	local := rosterModel("local", hub.LocalityLocal, RoleAnswer, RoleExpert)
	p := Unrestricted()
	p.Models = map[string]Weight{"local": WeightPrefer}
	cases := []struct {
		mode conductor.Mode
		want string
	}{
		{conductor.ModeResearch, "Prefer answer-2 for answering."},
		{conductor.ModeTools, "Prefer expert-2 as the expert."},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			got := Sentence(p, tc.mode, Offer{Roster: []llm.ModelInfo{cloud, local}, Models: []llm.ModelInfo{local}})
			if got != tc.want {
				t.Errorf("sentence %q, want %q", got, tc.want)
			}
		})
	}
}
