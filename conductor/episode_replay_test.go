package conductor

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

func TestReplaySendsTheRecordedFirstOrchestratorRequest(t *testing.T) {
	chat := startChat(t)
	models, err := llm.NewModels([]llm.ModelEndpoint{
		{Name: "orch", BaseURL: chat.URL() + "/v1", ModelID: "o", Locality: hub.LocalityLocal},
		{Name: "expert", BaseURL: chat.URL() + "/v1", ModelID: "e", Locality: hub.LocalityLocal},
	}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eps, err := NewEpisodes(EpisodesConfig{Tools: newFakeTools(hub.ServerMeta{Name: "s"}), Models: models,
		Orchestrator: "orch", KeepRequests: true})
	if err != nil {
		t.Fatal(err)
	}
	policy := &scriptPolicy{turns: [][]Action{{
		modelAct(ModelCall{Endpoint: "expert", Body: []byte(`{"n":"expert"}`)}),
		modelAct(ModelCall{Endpoint: "orch", Body: []byte(`{"n":"policy 1"}`)}),
		modelAct(ModelCall{Endpoint: "orch", Body: []byte(`{"n":"policy 2"}`)}),
		answerAct("done"),
	}}}
	recorded := []byte(`{"n":"recorded"}`)
	run, err := eps.Run(context.Background(), Task{Text: "t", Replay: &Replay{Of: "old", FirstRequest: recorded}}, policy)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"n":"expert"}`, `{"n":"recorded"}`, `{"n":"policy 2"}`}
	got := chat.Requests()
	if len(got) != len(want) {
		t.Fatalf("%d requests, want %d", len(got), len(want))
	}
	var sent []Step
	for _, s := range run.Steps {
		if s.Kind == StepModel {
			sent = append(sent, s)
		}
	}
	for i, w := range want {
		if string(got[i]) != w || string(sent[i].Request) != w {
			t.Errorf("request %d: sent %s, recorded %s, want %s", i, got[i], sent[i].Request, w)
		}
		if !bytes.Contains(sent[i].Reply, []byte(`"content":"hi"`)) {
			t.Errorf("step %d reply body not recorded: %s", i, sent[i].Reply)
		}
	}
	if s := run.Steps[1]; s.Kind != StepObservation || !strings.Contains(s.Text, "differs") {
		t.Errorf("a replayed request unlike the policy's was not noted: %+v", s)
	}
	if run.ReplayOf != "old" {
		t.Fatalf("replay_of %q", run.ReplayOf)
	}
}
