package policies_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// mfTraining: the small model solves geography, only the large one proofs.
func mfTraining(n int) string {
	var b strings.Builder
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&b, `{"question":"what is the capital city of country %d","scores":{"small":1,"large":1}}`+"\n", i)
		} else {
			fmt.Fprintf(&b, `{"question":"prove the theorem about prime gaps number %d","scores":{"small":0,"large":1}}`+"\n", i)
		}
	}
	return b.String()
}

func TestMFPolicyRoutesLiveEpisodes(t *testing.T) {
	train := writeFile(t, "train.jsonl", mfTraining(200))
	small := scripted(t)
	large := scripted(t)
	endpoints := []llm.ModelEndpoint{
		{Name: "small", BaseURL: small.URL() + "/v1", ModelID: "qwen3-8b", PriceIn: 0.2, PriceOut: 0.2, Roles: []string{"answer"}, AnswerStyle: "boxed"},
		{Name: "large", BaseURL: large.URL() + "/v1", ModelID: "gpt-5", PriceIn: 1.25, PriceOut: 10, Roles: []string{"answer"}, AnswerStyle: "tagged"},
	}
	var searches recorder
	h := startHub(t, docsServer(&searches, "a passage"))
	cases := []struct {
		name      string
		task      string
		endpoints []llm.ModelEndpoint
		want      string
	}{
		{"easy task goes to the cheap model", "what is the capital city of chile", endpoints, "small-answer"},
		{"hard task goes to the strong model", "prove the theorem about twin primes", endpoints, "large-answer"},
		{"a model that is not offered is never picked", "prove the theorem about twin primes", endpoints[:1], "small-answer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			small.Append(scriptedmodel.RawTextReply(`\boxed{small-answer}`))
			large.Append(scriptedmodel.RawTextReply(`<answer>large-answer</answer>`))
			eps, _ := newEpisodes(t, h, "", tc.endpoints...)
			p, err := policies.NewPolicy("mf:"+train, policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			run, err := eps.Run(context.Background(), conductor.Task{Text: tc.task, PolicyName: "mf"}, p)
			if err != nil {
				t.Fatal(err)
			}
			if run.Answer != tc.want {
				t.Fatalf("answer %q, want %q\n%s", run.Answer, tc.want, observations(run))
			}
		})
	}
}

func TestMFPolicyTakesTheUsersCostPreference(t *testing.T) {
	train := writeFile(t, "train.jsonl", mfTraining(100))
	p, err := policies.NewPolicy("mf:"+train, policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	k, ok := p.(*policies.KNNPolicy)
	if !ok || !strings.HasPrefix(k.String(), "mf(") {
		t.Fatalf("policy %T %v", p, p)
	}
	k.UsePreferences(policies.Preferences{CostWeight: 0.8, LatencyWeight: 0.2})
	if math.Abs(k.Weights.Cost-0.08) > 1e-12 || math.Abs(k.Weights.Latency-0.02) > 1e-12 {
		t.Fatalf("weights %+v after the preferences", k.Weights)
	}
	if _, err := policies.NewPolicy("mf:"+t.TempDir()+"/absent.jsonl", policies.Orchestrator{}); err == nil ||
		!strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing file: %v", err)
	}
}
