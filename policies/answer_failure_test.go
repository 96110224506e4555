package policies_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// TestFailedAnswerCallIsNoAnswer: an answer call that fails in transport or
// whose reply cannot be read consumes the turn as an observation (protocol
// §3.6 step 1); it is never an answer, empty or not. A reply with no
// answer in the alias's style still ends the episode (§3.6 step 6).
func TestFailedAnswerCallIsNoAnswer(t *testing.T) {
	answer := scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`)
	cases := []struct {
		name       string
		orch       []scriptedmodel.Reply
		expert     []scriptedmodel.Reply
		maxTurns   int
		wantStatus conductor.RunStatus
		wantAnswer string
		wantNote   string // "" when no failure is noted
	}{
		{"HTTP 500 on the only turn", []scriptedmodel.Reply{answer}, []scriptedmodel.Reply{scriptedmodel.ErrorReply(500)},
			1, conductor.RunNoAnswer, "", "the answer call to answer-1 failed"},
		{"unreadable reply", []scriptedmodel.Reply{answer}, []scriptedmodel.Reply{scriptedmodel.MalformedBodyReply("not json")},
			1, conductor.RunNoAnswer, "", "the answer call to answer-1 failed"},
		{"HTTP 500, then answered next turn", []scriptedmodel.Reply{answer, answer},
			[]scriptedmodel.Reply{scriptedmodel.ErrorReply(500), scriptedmodel.RawTextReply(`so \boxed{42}.`)},
			3, conductor.RunAnswered, "42", "the answer call to answer-1 failed"},
		{"reply without an answer still ends", []scriptedmodel.Reply{answer}, []scriptedmodel.Reply{scriptedmodel.RawTextReply("I do not know.")},
			3, conductor.RunAnswered, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var searches recorder
			h := startHub(t, docsServer(&searches, "a passage"))
			orch := scripted(t, tc.orch...)
			expert := scripted(t, tc.expert...)
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleAnswer))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "q", MaxTurns: tc.maxTurns}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != tc.wantStatus || run.Answer != tc.wantAnswer {
				t.Fatalf("status %s answer %q, want %s %q; trace:\n%s", run.Status, run.Answer, tc.wantStatus, tc.wantAnswer, observations(run))
			}
			if got := strings.Contains(observations(run), tc.wantNote); tc.wantNote != "" && !got {
				t.Errorf("no observation %q in:\n%s", tc.wantNote, observations(run))
			}
		})
	}
}

// TestFallbackRetriesAFailedAnswerCall: the no-orchestrator fallback's
// failed answer call consumes the turn and the next turn asks again.
func TestFallbackRetriesAFailedAnswerCall(t *testing.T) {
	cases := []struct {
		name       string
		expert     []scriptedmodel.Reply
		maxTurns   int
		wantStatus conductor.RunStatus
		wantAnswer string
		wantCalls  int
	}{
		{"fails once, then answers", []scriptedmodel.Reply{scriptedmodel.ErrorReply(500), scriptedmodel.RawTextReply(`\boxed{Paris}`)},
			3, conductor.RunAnswered, "Paris", 2},
		{"fails on every turn", []scriptedmodel.Reply{scriptedmodel.ErrorReply(500), scriptedmodel.ErrorReply(500)},
			2, conductor.RunNoAnswer, "", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var searches recorder
			h := startHub(t, docsServer(&searches, "a passage"))
			expert := scripted(t, tc.expert...)
			eps, _ := newEpisodes(t, h, "", expertEndpoint(expert.URL()+"/v1", policies.RoleAnswer))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "q", MaxTurns: tc.maxTurns}, &policies.RetrieveAnswer{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != tc.wantStatus || run.Answer != tc.wantAnswer || len(expert.Requests()) != tc.wantCalls {
				t.Fatalf("status %s answer %q after %d answer calls; trace:\n%s", run.Status, run.Answer, len(expert.Requests()), observations(run))
			}
			if len(searches.calls()) != 1 {
				t.Errorf("searched %d times, want once", len(searches.calls()))
			}
		})
	}
}
