package policies_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// knnTraining: the small model solves geography, only the large one proofs.
const knnTraining = `{"question":"what is the capital city of france","scores":{"small":1,"large":1}}
{"question":"what is the capital city of peru","scores":{"small":1,"large":1}}
{"question":"prove the theorem about prime gaps","scores":{"small":0,"large":1}}
{"question":"prove the theorem about graph colouring","scores":{"small":0,"large":1}}
`

func TestKNNPolicyRoutesLiveEpisodes(t *testing.T) {
	train := writeFile(t, "train.jsonl", knnTraining)
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
			p, err := policies.NewPolicy("knn:"+train, policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			run, err := eps.Run(context.Background(), conductor.Task{Text: tc.task, PolicyName: "knn"}, p)
			if err != nil {
				t.Fatal(err)
			}
			if run.Answer != tc.want {
				t.Fatalf("answer %q, want %q\n%s", run.Answer, tc.want, observations(run))
			}
		})
	}
}

func TestKNNPolicyWithUnknownModelsAnswersWithTheCheapest(t *testing.T) {
	train := writeFile(t, "train.jsonl", knnTraining)
	cheap := scripted(t, scriptedmodel.RawTextReply(`\boxed{cheap}`))
	var searches recorder
	h := startHub(t, docsServer(&searches))
	eps, _ := newEpisodes(t, h, "", llm.ModelEndpoint{Name: "other", BaseURL: cheap.URL() + "/v1", ModelID: "m",
		Roles: []string{"answer"}, AnswerStyle: "boxed"})
	p, err := policies.NewPolicy("knn:"+train, policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	run, err := eps.Run(context.Background(), conductor.Task{Text: "prove the theorem"}, p)
	if err != nil {
		t.Fatal(err)
	}
	if run.Answer != "cheap" || !strings.Contains(observations(run), "no recorded outcome") {
		t.Fatalf("answer %q, observations:\n%s", run.Answer, observations(run))
	}
}

// remoteRefused is a guard that refuses every remote model, as local-only
// privacy does.
type remoteRefused struct{ conductor.PermissiveGuard }

func (remoteRefused) AllowModel(m llm.ModelInfo) (bool, string) {
	if m.Locality == hub.LocalityRemote {
		return false, "local only"
	}
	return true, ""
}

func TestKNNPolicyHonoursPrivacy(t *testing.T) {
	train := writeFile(t, "train.jsonl", knnTraining)
	small := scripted(t, scriptedmodel.RawTextReply(`\boxed{small-answer}`))
	large := scripted(t, scriptedmodel.RawTextReply(`<answer>large-answer</answer>`))
	models, err := llm.NewModels([]llm.ModelEndpoint{
		{Name: "small", BaseURL: small.URL() + "/v1", ModelID: "qwen3-8b", Locality: hub.LocalityLocal, Roles: []string{"answer"}, AnswerStyle: "boxed"},
		{Name: "large", BaseURL: large.URL() + "/v1", ModelID: "gpt-5", Locality: hub.LocalityRemote, PriceIn: 1.25, PriceOut: 10, Roles: []string{"answer"}, AnswerStyle: "tagged"},
	}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var searches recorder
	eps, err := conductor.NewEpisodes(conductor.EpisodesConfig{Tools: startHub(t, docsServer(&searches)), Models: models, Guard: remoteRefused{}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := policies.NewPolicy("knn:"+train, policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	run, err := eps.Run(context.Background(), conductor.Task{Text: "prove the theorem about twin primes"}, p)
	if err != nil {
		t.Fatal(err)
	}
	if run.Answer != "small-answer" || len(large.Requests()) != 0 {
		t.Fatalf("answer %q, %d requests to the remote model", run.Answer, len(large.Requests()))
	}
}
