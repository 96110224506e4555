package conductor

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
)

// sleepRecorder stands in for the timer: it notes each wait and returns
// at once, or, when block is set, waits for the context to end.
type sleepRecorder struct {
	mu    sync.Mutex
	waits []time.Duration
	block bool
}

func (s *sleepRecorder) sleep(ctx context.Context, d time.Duration) bool {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	if s.block {
		<-ctx.Done()
		return false
	}
	return ctx.Err() == nil
}

// modelEveryTurn calls endpoint "m" once per turn, for turns turns.
func modelEveryTurn(turns int) *scriptPolicy {
	p := &scriptPolicy{}
	for range turns {
		p.turns = append(p.turns, []Action{modelAct(ModelCall{Endpoint: "m", Body: []byte(`{"messages":[]}`)})})
	}
	return p
}

// TestFailedModelCallsBackOff: after a failed model call (HTTP 500) the
// turn is consumed, and the next call of that model waits a jittered delay
// that doubles with each failure in a row up to the cap; a successful call
// forgets the failures (protocol §10).
func TestFailedModelCallsBackOff(t *testing.T) {
	base, most := 100*time.Millisecond, 400*time.Millisecond
	fail, ok := scriptedmodel.ErrorReply(500), scriptedmodel.RawTextReply("hi")
	cases := []struct {
		name     string
		replies  []scriptedmodel.Reply
		ceilings []time.Duration // the ceiling of each wait, in order
	}{
		{"no failure, no wait", []scriptedmodel.Reply{ok, ok, ok}, nil},
		{"one failure", []scriptedmodel.Reply{fail, ok, ok}, []time.Duration{base}},
		{"growing and capped", []scriptedmodel.Reply{fail, fail, fail, fail, fail},
			[]time.Duration{base, 2 * base, most, most}},
		{"a success starts again", []scriptedmodel.Reply{fail, fail, ok, fail, ok},
			[]time.Duration{base, 2 * base, base}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chat := scriptedmodel.New(tc.replies...)
			t.Cleanup(chat.Close)
			models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "m", BaseURL: chat.URL() + "/v1", ModelID: "x", Locality: hub.LocalityLocal}}, llm.ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var sleeps sleepRecorder
			eps, err := NewEpisodes(EpisodesConfig{Tools: newFakeTools(hub.ServerMeta{Name: "s"}), Models: models,
				RetryDelay: base, RetryMaxDelay: most, Sleep: sleeps.sleep})
			if err != nil {
				t.Fatal(err)
			}
			run, err := eps.Run(context.Background(), Task{Text: "t", MaxTurns: len(tc.replies)}, modelEveryTurn(len(tc.replies)))
			if err != nil {
				t.Fatal(err)
			}
			if run.Totals.Turns != len(tc.replies) || len(chat.Requests()) != len(tc.replies) {
				t.Fatalf("%d turns and %d requests, want %d each", run.Totals.Turns, len(chat.Requests()), len(tc.replies))
			}
			if len(sleeps.waits) != len(tc.ceilings) {
				t.Fatalf("waits %v, want %d of them", sleeps.waits, len(tc.ceilings))
			}
			for i, c := range tc.ceilings {
				if w := sleeps.waits[i]; w < c/2 || w > c {
					t.Errorf("wait %d = %s, want between %s and %s", i+1, w, c/2, c)
				}
			}
			if got := hasStep(run, "failed in a row; waiting"); got != (len(tc.ceilings) > 0) {
				t.Errorf("the trace notes the waits: %v (steps %+v)", got, run.Steps)
			}
		})
	}
}

// TestBackOffEndsWithTheEpisode: a wait between failed calls ends with the
// episode's deadline or its cancellation, and the model is not called
// again.
func TestBackOffEndsWithTheEpisode(t *testing.T) {
	cases := []struct {
		name   string
		task   Task
		cancel bool
		want   RunStatus
	}{
		{"deadline", Task{Text: "t", Deadline: 50 * time.Millisecond}, false, RunDeadline},
		{"cancelled", Task{Text: "t", Deadline: time.Hour}, true, RunCancelled},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			chat := scriptedmodel.New(scriptedmodel.ErrorReply(500))
			chat.SetLoop(true)
			t.Cleanup(chat.Close)
			models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "m", BaseURL: chat.URL() + "/v1", ModelID: "x", Locality: hub.LocalityLocal}}, llm.ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			sleeps := &sleepRecorder{block: !tc.cancel}
			sleep := sleeps.sleep
			if tc.cancel {
				sleep = func(ctx context.Context, d time.Duration) bool { cancel(); return sleeps.sleep(ctx, d) }
			}
			eps, err := NewEpisodes(EpisodesConfig{Tools: newFakeTools(hub.ServerMeta{Name: "s"}), Models: models, Sleep: sleep})
			if err != nil {
				t.Fatal(err)
			}
			run, err := eps.Run(ctx, tc.task, modelEveryTurn(MaxTurns))
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != tc.want || len(chat.Requests()) != 1 || len(sleeps.waits) != 1 {
				t.Fatalf("status %s after %d requests and waits %v, want %s after 1 request and one wait", run.Status, len(chat.Requests()), sleeps.waits, tc.want)
			}
		})
	}
}
