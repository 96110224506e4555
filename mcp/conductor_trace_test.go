package mcp

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
)

// The result's text agrees with the run's status: an answered run never
// reads "No answer", and a run that did not answer never shows text as
// its answer.
func TestTraceSummaryAgreesWithStatus(t *testing.T) {
	cases := []struct {
		name string
		run  conductor.Run
		want string
	}{
		{"answered", conductor.Run{Status: conductor.RunAnswered, Answer: "42"}, "42\n\n[answered · "},
		{"answered empty", conductor.Run{Status: conductor.RunAnswered}, "The answer is empty.\n\n[answered · "},
		{"deadline", conductor.Run{Status: conductor.RunDeadline, Error: "the deadline of 1s passed; done so far in 1 turn: no call completed; no answer yet"},
			"No answer: the deadline of 1s passed; done so far in 1 turn: no call completed; no answer yet\n\n[deadline · "},
		{"stopped with text", conductor.Run{Status: conductor.RunBudgetExhausted, Answer: "tool output", Error: "budget: spent"},
			"No answer: budget: spent\n\n[budget_exhausted · "},
		{"cancelled", conductor.Run{Status: conductor.RunCancelled}, "No answer.\n\n[cancelled · "},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTrace(&tc.run)
			if got := tr.Summary(); !strings.HasPrefix(got, tc.want) {
				t.Fatalf("summary %q, want it to start with %q", got, tc.want)
			}
			if tc.run.Status != conductor.RunAnswered && tr.Answer != "" {
				t.Fatalf("a run that did not answer has the answer %q", tr.Answer)
			}
		})
	}
}
