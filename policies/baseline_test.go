package policies_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

func TestBaselinesPickTheirModel(t *testing.T) {
	cheap := scripted(t, scriptedmodel.RawTextReply(`\boxed{cheap}`))
	dear := scripted(t, scriptedmodel.RawTextReply(`<answer>dear</answer>`))
	endpoints := func() []llm.ModelEndpoint {
		return []llm.ModelEndpoint{
			{Name: "small", BaseURL: cheap.URL() + "/v1", ModelID: "qwen3-32b", PriceIn: 0.8, PriceOut: 0.8, Roles: []string{"answer"}, AnswerStyle: "boxed"},
			{Name: "large", BaseURL: dear.URL() + "/v1", ModelID: "gpt-5", PriceIn: 1.25, PriceOut: 10, Roles: []string{"answer"}, AnswerStyle: "tagged"},
		}
	}
	cases := []struct {
		policy string
		want   string
	}{
		{"cheapest", "cheap"},
		{"strongest", "dear"},
		{"fixed:small", "cheap"},
		{"retrieve-answer", "dear"},
	}
	var searches recorder
	h := startHub(t, docsServer(&searches, "a passage"))
	for _, tc := range cases {
		t.Run(tc.policy, func(t *testing.T) {
			cheap.Append(scriptedmodel.RawTextReply(`\boxed{cheap}`))
			dear.Append(scriptedmodel.RawTextReply(`<answer>dear</answer>`))
			eps, _ := newEpisodes(t, h, "", endpoints()...)
			p, err := policies.NewPolicy(tc.policy, policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			run, err := eps.Run(context.Background(), conductor.Task{Text: "q", PolicyName: tc.policy}, p)
			if err != nil {
				t.Fatal(err)
			}
			if run.Answer != tc.want || run.Totals.ToolCalls != 1 {
				t.Fatalf("answer %q tool calls %d", run.Answer, run.Totals.ToolCalls)
			}
		})
	}
}

func TestRetrieveAnswerWithoutModels(t *testing.T) {
	var searches recorder
	h := startHub(t, docsServer(&searches, "best passage", "second passage"))
	eps, _ := newEpisodes(t, h, "")
	run, err := eps.Run(context.Background(), conductor.Task{Text: "q"}, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	if !run.Forced || !strings.HasPrefix(run.Answer, "No model is available") ||
		strings.Index(run.Answer, "best passage") > strings.Index(run.Answer, "second passage") {
		t.Fatalf("forced %v answer %q", run.Forced, run.Answer)
	}
	if !strings.Contains(observations(run), "no orchestrator model") {
		t.Fatalf("the switch to the fallback is not said:\n%s", observations(run))
	}
}

func TestNewPolicyErrors(t *testing.T) {
	for _, spec := range []string{"smartest", "fixed:", "orchestrator:", "orchestrator:gaia", "orchestrator:FRAMES"} {
		if _, err := policies.NewPolicy(spec, policies.Orchestrator{}); err == nil {
			t.Errorf("%q accepted", spec)
		}
	}
	var searches recorder
	h := startHub(t, docsServer(&searches))
	eps, _ := newEpisodes(t, h, "")
	p, _ := policies.NewPolicy("fixed:missing", policies.Orchestrator{})
	run, err := eps.Run(context.Background(), conductor.Task{Text: "q"}, p)
	if err == nil || run.Status != conductor.RunFailed || !strings.Contains(run.Error, `"missing"`) {
		t.Fatalf("err %v status %s", err, run.Status)
	}
}
