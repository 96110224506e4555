package conductor

import (
	"context"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
)

// A budget or deadline stop never passes a tool's output off as the
// answer: the answer stays empty and the error says what was done.
func TestLimitStopSaysWhatWasDone(t *testing.T) {
	cases := []struct {
		name   string
		task   Task
		status RunStatus
		want   string
	}{
		{"deadline", Task{Text: "t", Deadline: 300 * time.Millisecond}, RunDeadline,
			"the deadline of 300ms passed; done so far in 2 turns: 1 tool call (srv__read), 1 call failed or refused; no answer yet"},
		// srv__read costs $0.01: the second call would pass $0.015.
		{"budget", Task{Text: "t", BudgetUSD: 0.015}, RunBudgetExhausted,
			"budget: tool srv__read would cost about $0.01 with $0.01 of the $0.015 budget spent; " +
				"done so far in 2 turns: 1 tool call (srv__read), 1 call failed or refused; no answer yet"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal, CostPerCall: 0.01}, "read")
			slow := scriptedmodel.New(scriptedmodel.RawTextReply("late").WithDelay(time.Minute))
			t.Cleanup(slow.Close)
			models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "m", BaseURL: slow.URL() + "/v1", ModelID: "x", Locality: hub.LocalityLocal}}, llm.ModelOptions{})
			if err != nil {
				t.Fatal(err)
			}
			eps, err := NewEpisodes(EpisodesConfig{Tools: tools, Models: models})
			if err != nil {
				t.Fatal(err)
			}
			second := toolAct("srv__read", `{}`)
			if tc.status == RunDeadline {
				second = modelAct(ModelCall{Endpoint: "m", Body: []byte(`{"model":"x"}`)})
			}
			policy := &scriptPolicy{turns: [][]Action{{toolAct("srv__read", `{}`)}, {second, answerAct("too late")}}}
			run, err := eps.Run(context.Background(), tc.task, policy)
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != tc.status || run.Answer != "" || run.Error != tc.want {
				t.Fatalf("status %s answer %q error %q\nwant %s error %q", run.Status, run.Answer, run.Error, tc.status, tc.want)
			}
		})
	}
}

// The turn limit's reason counts turns in words that agree with the number.
func TestNoAnswerWithinTurnLimit(t *testing.T) {
	cases := []struct {
		name     string
		maxTurns int
		want     string
	}{
		{"one turn", 1, "no answer within 1 turn"},
		{"three turns", 3, "no answer within 3 turns"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eps, err := NewEpisodes(EpisodesConfig{Tools: newFakeTools(hub.ServerMeta{Name: "s"})})
			if err != nil {
				t.Fatal(err)
			}
			run, err := eps.Run(context.Background(), Task{Text: "t", MaxTurns: tc.maxTurns}, &scriptPolicy{turns: make([][]Action, tc.maxTurns)})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != RunNoAnswer || run.Error != tc.want {
				t.Fatalf("status %s error %q, want %q", run.Status, run.Error, tc.want)
			}
		})
	}
}
