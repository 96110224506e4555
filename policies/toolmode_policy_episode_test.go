package policies_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// TestToolModePolicyReachesOrchestratorAndExpert runs a tool-mode episode
// without a configured policy text: both system messages carry toolhub's
// own <policy> (protocol §4), the orchestrator's followed by the expert
// paragraph, the expert's alone.
func TestToolModePolicyReachesOrchestratorAndExpert(t *testing.T) {
	var kv recorder
	h := startHub(t, kvServer(&kv))
	orch := scripted(t,
		scriptedmodel.ToolCallReply("", "call_expert", `{"expert":"expert-1"}`),
		scriptedmodel.RawTextReply("<message>Done.</message>"))
	expert := scripted(t, scriptedmodel.ToolCallReply("", "kv__get", `{"key":"a"}`))
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleExpert))
	o := &policies.Orchestrator{}
	o.UsePreferences(policies.Preferences{Privacy: policies.PrivacyPreferLocal})
	run, err := eps.Run(context.Background(), conductor.Task{Text: "Read a.", Mode: conductor.ModeTools}, o)
	if err != nil {
		t.Fatal(err)
	}
	if run.Answer != "Done." {
		t.Fatalf("answer %q\n%s", run.Answer, observations(run))
	}
	policy := policies.ToolModePolicy([]policies.ToolSpec{{Name: "kv__get", Description: "Read a value.", Locality: hub.LocalityLocal}}, policies.PrivacyPreferLocal)
	cases := []struct {
		name string
		body []byte
		want string
	}{
		{"orchestrator", orch.Requests()[0], "<policy>\n" + policy + "\n\nYou should transfer the user to an expert"},
		{"expert", expert.Requests()[0], "<policy>\n" + policy + "\n</policy>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var req policies.ChatRequest
			if err := json.Unmarshal(tc.body, &req); err != nil {
				t.Fatal(err)
			}
			system := req.Messages[0].Content
			if !strings.Contains(system, tc.want) || !strings.Contains(system, "- kv__get (local): Read a value.") {
				t.Errorf("system message:\n%s\nwant it to hold\n%s", system, tc.want)
			}
			if strings.Contains(system, "<policy>\n\n") {
				t.Errorf("empty policy in:\n%s", system)
			}
		})
	}
}
