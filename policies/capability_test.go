package policies

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/llm"
)

func TestCapabilitySentenceNamesItsAlias(t *testing.T) {
	cases := []struct {
		name, alias, capability, want string
	}{
		{"plain text gets the alias", "search-3", "answers simple questions well.", "search-3 answers simple questions well."},
		{"capital letter lowered", "answer-1", "Answers simple questions well.", "answer-1 answers simple questions well."},
		{"acronym kept", "reasoner-1", "GPU-bound but exact.", "reasoner-1 GPU-bound but exact."},
		{"trained sentence kept", "answer-2", "answer-2 presents reasonable solutions in some tasks.", "answer-2 presents reasonable solutions in some tasks."},
		{"stale alias renumbered", "answer-1", "answer-2 presents reasonable solutions in some tasks.", "answer-1 presents reasonable solutions in some tasks."},
		{"math alias renumbered", "answer-3", "answer-math-1 can solve moderate math problems.", "answer-3 can solve moderate math problems."},
		{"alias with a colon", "expert-2", "expert-1: strong at code.", "expert-2 strong at code."},
		{"alias starting a sentence", "search-2", "Search-1 finds facts quickly.", "search-2 finds facts quickly."},
		{"math alias in capitals", "answer-3", "ANSWER-MATH-1 solves equations.", "answer-3 solves equations."},
		{"empty", "search-1", "  ", ""},
		{"alias alone", "search-1", "search-4", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := capabilitySentence(tc.alias, tc.capability); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestConfiguredCapabilityInDescriptions: a model's configured capability
// reaches both research tools and call_expert as a sentence naming the
// alias, without the model's own name.
func TestConfiguredCapabilityInDescriptions(t *testing.T) {
	models := []llm.ModelInfo{
		{ModelEndpoint: llm.ModelEndpoint{Name: "big", ModelID: "gpt-5", Roles: []string{RoleSearch, RoleAnswer, RoleExpert},
			Capability: "solves hard problems."}},
		{ModelEndpoint: llm.ModelEndpoint{Name: "qwen", ModelID: "Qwen/Qwen3-32B", Roles: []string{RoleSearch, RoleAnswer, RoleExpert},
			Capability: "Qwen3-32B answers simple questions well."}},
	}
	cases := []struct {
		name string
		desc string
		want []string
	}{
		{"search", describeAliases("The model used to search.", tableIntro, aliasesWithRole(aliasesFor(nil, models, nil, RoleSearch).aliases, RoleSearch)),
			[]string{"search-1 solves hard problems.", "search-2 answers simple questions well."}},
		{"answer", describeAliases("The model used to answer.", tableIntro, aliasesFor(nil, models, nil, RoleAnswer).aliases),
			[]string{"answer-1 solves hard problems.", "answer-2 answers simple questions well."}},
		{"call_expert", string(callExpertTool(aliasesFor(nil, models, nil, RoleExpert).aliases).Function.Parameters),
			[]string{"expert-1 solves hard problems.", "expert-2 answers simple questions well."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.desc, w) {
					t.Errorf("description lacks %q:\n%s", w, tc.desc)
				}
			}
			if strings.Contains(tc.desc, "Qwen3-32B") {
				t.Errorf("description names the model:\n%s", tc.desc)
			}
		})
	}
}
