package conductor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/supervise"
	"github.com/toolhub/toolhub/llm"
)

// TestLoadingModelIsWaitedFor: a model server that answers 503 "Loading
// model" is tried again after a wait instead of failing the call at once,
// and a model still loading when the wait is over fails the call saying so.
func TestLoadingModelIsWaitedFor(t *testing.T) {
	cases := []struct {
		name       string
		loading    int // requests answered "Loading model" first
		loadWait   time.Duration
		wantErr    string // "" when the call must succeed
		wantTries  int    // chat requests answered, loading ones not counted
		wantWaited bool
	}{
		{"ready at once", 0, time.Minute, "", 1, false},
		{"loads after three tries", 3, time.Minute, "", 1, true},
		{"still loading when the wait is over", 1000, 20 * time.Millisecond, "still loading", 0, true},
		{"no wait asked", 1, -1, "still loading", 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chat := scriptedmodel.New(scriptedmodel.RawTextReply("hi").WithUsage(12, 3))
			chat.SetLoop(true)
			chat.LoadingForChats(tc.loading)
			t.Cleanup(chat.Close)
			models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "local", BaseURL: chat.URL() + "/v1", ModelID: "x", Locality: hub.LocalityLocal}}, llm.ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			eps, err := NewEpisodes(EpisodesConfig{Tools: newFakeTools(hub.ServerMeta{Name: "s"}), Models: models,
				LoadWait: tc.loadWait, LoadRetry: supervise.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			var heard *Outcome
			policy := &scriptPolicy{
				turns: [][]Action{{modelAct(ModelCall{Endpoint: "local", Body: []byte(`{"messages":[]}`)}), answerAct("done")}},
				hear:  func(o *Outcome) { heard = o },
			}
			run, err := eps.Run(context.Background(), Task{Text: "t"}, policy)
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantErr == "" {
				if heard == nil || heard.Err != nil || heard.Reply == nil {
					t.Fatalf("the call did not succeed: %+v", heard)
				}
			} else {
				if _, ok := errors.AsType[*llm.ModelLoadingError](heard.Err); !ok || !strings.Contains(heard.Err.Error(), tc.wantErr) {
					t.Fatalf("outcome error %v, want a loading error saying %q", heard.Err, tc.wantErr)
				}
			}
			if len(chat.Requests()) != tc.wantTries {
				t.Errorf("the model got %d requests, want %d", len(chat.Requests()), tc.wantTries)
			}
			if got := hasStep(run, "is still loading; waiting"); got != tc.wantWaited {
				t.Errorf("the trace shows the wait: %v, want %v (steps %+v)", got, tc.wantWaited, run.Steps)
			}
		})
	}
}

func hasStep(run *Run, text string) bool {
	for _, s := range run.Steps {
		if s.Kind == StepObservation && strings.Contains(s.Text, text) {
			return true
		}
	}
	return false
}
