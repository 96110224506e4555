package policies

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func policyTools() []ToolSpec {
	return []ToolSpec{
		{Name: "search_documents", Locality: hub.LocalityLocal, Description: "Search the user's private local documents (files indexed on this machine; " +
			"nothing leaves it). Returns the best matching passages with their file path, byte offsets and a snippet."},
		{Name: "web_search", Locality: hub.LocalityRemote, Description: "Search the public web (through tavily) and return a short list of results: title, URL and snippet. The query leaves this machine."},
		{Name: "transfer_to_human_agents", Locality: hub.LocalityRemote, Description: "Transfer the user to a human agent."},
		{Name: "kv__get", Locality: hub.LocalityLocal},
		{Name: "notes__dump", Locality: hub.LocalityLocal, Description: strings.Repeat("Prints every note with its full history and metadata ", 6)},
	}
}

func TestToolModePolicyGolden(t *testing.T) {
	cases := []struct {
		name    string
		tools   []ToolSpec
		privacy Privacy
	}{
		{"prefer_local", policyTools(), PrivacyPreferLocal},
		{"local_only", policyTools()[:1], PrivacyLocalOnly},
		{"any", policyTools(), PrivacyAny},
		{"unset_reads_as_any", policyTools()[1:2], ""},
		{"no_tools", nil, PrivacyPreferLocal},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ToolModePolicy(tc.tools, tc.privacy)
			if strings.Contains(got, transferTool) {
				t.Errorf("the policy lists %s, which is never offered", transferTool)
			}
			checkGolden(t, "toolmode_policy/"+tc.name+".golden", []byte(got+"\n"))
		})
	}
}

// TestToolModePolicyInSystemMessages checks what §4 asks of both system
// messages: the orchestrator's <policy> holds toolhub's policy followed by
// the expert paragraph, and the expert's holds the same policy alone.
func TestToolModePolicyInSystemMessages(t *testing.T) {
	o := &Orchestrator{}
	o.UsePreferences(Preferences{Privacy: PrivacyLocalOnly})
	specs := policyTools()[:1]
	policy := o.policyText(specs)
	if !strings.Contains(policy, "- search_documents (local): Search the user's private local documents") || !strings.Contains(policy, privacyLocalOnly) {
		t.Fatalf("policy misses the tool or the privacy rule:\n%s", policy)
	}
	orch := ToolModeSystem(policy, paperExperts())
	wantOrch := "<policy>\n" + policy + "\n\n" + expertPolicy + "\n</policy>  " + systemSuffix
	if !strings.HasSuffix(orch, wantOrch) {
		t.Errorf("orchestrator system message:\n%s\nwant it to end with\n%s", orch, wantOrch)
	}
	expert := ExpertSystem(policy)
	if !strings.HasSuffix(expert, "<policy>\n"+policy+"\n</policy>") || strings.Contains(expert, "call_expert") {
		t.Errorf("expert system message:\n%s", expert)
	}
	o.PolicyText = "Only read files."
	if got := o.policyText(specs); got != "Only read files." {
		t.Errorf("a configured policy text was replaced: %q", got)
	}
}

// The planner hands every preferenceUser the preferences in force: the
// orchestrator takes its privacy setting from them.
var _ preferenceUser = (*Orchestrator)(nil)
