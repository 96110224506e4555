package policies_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// Each malformed first reply must become an observation and consume the
// turn; the second reply answers.
func TestResearchMalformedRepliesAreObservations(t *testing.T) {
	answer := scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`)
	cases := []struct {
		name     string
		first    scriptedmodel.Reply
		wantObs  string
		searches int
	}{
		{"invalid JSON parsed", scriptedmodel.ToolCallReply("", "search", `{"model": search-1}`), "invalid tool call", 0},
		{"invalid JSON raw", scriptedmodel.RawTextReply("<tool_call>\n{\"name\": \"search\", \"arguments\": {\"model\": }\n</tool_call>"), "invalid tool call", 0},
		{"unknown tool", scriptedmodel.ToolCallReply("", "web_browse", `{"model": "search-1"}`), `unknown tool "web_browse"`, 0},
		{"alias not offered", scriptedmodel.ToolCallReply("", "search", `{"model": "search-9"}`), `alias "search-9" is not offered`, 0},
		{"missing argument", scriptedmodel.ToolCallReply("", "answer", `{}`), "invalid tool call", 0},
		{"no call at all", scriptedmodel.RawTextReply("<think>…</think>\nThe answer is 42."), "no valid tool call", 0},
		{"truncated", scriptedmodel.TruncatedReply("<tool_call>\n{\"name\": \"ans"), "invalid tool call", 0},
		{"http 500", scriptedmodel.ErrorReply(500), "", 0},
		{"not a completion", scriptedmodel.MalformedBodyReply(`{"oops":1}`), "unreadable", 0},
		{"several calls run only the first", scriptedmodel.ToolCallsReply("",
			scriptedmodel.Call{Name: "search", Args: `{"model": "search-1"}`},
			scriptedmodel.Call{Name: "answer", Args: `{"model": "answer-1"}`}), "ignored tool call answer", 1},
		{"invalid then valid", scriptedmodel.ToolCallsReply("",
			scriptedmodel.Call{Name: "search", Args: `{"model": "search-9"}`},
			scriptedmodel.Call{Name: "search", Args: `{"model": "search-1"}`}), `alias "search-9"`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var searches recorder
			h := startHub(t, docsServer(&searches, "a passage about things"))
			orch := scripted(t, tc.first, answer)
			expert := scripted(t, scriptedmodel.RawTextReply("<query>things to know</query>"), scriptedmodel.RawTextReply(`\boxed{42}`))
			if tc.searches == 0 {
				expert = scripted(t, scriptedmodel.RawTextReply(`\boxed{42}`))
			}
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"),
				expertEndpoint(expert.URL()+"/v1", policies.RoleSearch, policies.RoleAnswer))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "q"}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunAnswered || run.Answer != "42" || run.Totals.Turns != 2 {
				t.Fatalf("status %s answer %q turns %d\n%s", run.Status, run.Answer, run.Totals.Turns, observations(run))
			}
			if !strings.Contains(observations(run), tc.wantObs) {
				t.Fatalf("observations lack %q:\n%s", tc.wantObs, observations(run))
			}
			if got := len(searches.calls()); got != tc.searches {
				t.Fatalf("searches = %d, want %d", got, tc.searches)
			}
		})
	}
}

func TestUnreachableOrchestratorUsesFallbackOnce(t *testing.T) {
	var searches recorder
	h := startHub(t, docsServer(&searches, "The answer is 7."))
	// Port 9 (discard): nothing of the tests listens there. A server's
	// port just closed could be given to the expert started next.
	deadURL := "http://127.0.0.1:9/v1"
	expert := scripted(t, scriptedmodel.RawTextReply(`\boxed{7}`))
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(deadURL), expertEndpoint(expert.URL()+"/v1", policies.RoleAnswer))
	run, err := eps.Run(context.Background(), conductor.Task{Text: "what number?"}, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != conductor.RunAnswered || run.Answer != "7" || !run.Forced {
		t.Fatalf("status %s answer %q forced %v\n%s", run.Status, run.Answer, run.Forced, observations(run))
	}
	if n := strings.Count(observations(run), "unreachable"); n != 1 {
		t.Fatalf("unreachable said %d times:\n%s", n, observations(run))
	}
	if got := searches.calls(); len(got) != 1 || got[0]["query"] != "what number?" {
		t.Fatalf("fallback searches = %v", got)
	}
}

func TestCancellationStopsInFlightCall(t *testing.T) {
	var searches recorder
	h := startHub(t, docsServer(&searches))
	orch := scripted(t,
		scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
		scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`).WithDelay(time.Hour))
	expert := scripted(t, scriptedmodel.RawTextReply("<query>some query</query>"))
	eps, bus := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"),
		expertEndpoint(expert.URL()+"/v1", policies.RoleSearch, policies.RoleAnswer))
	sub := bus.Subscribe(events.Filter{Buffer: 64})
	defer sub.Cancel()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the orchestrator's second call has reached the server
		// (it is scripted to hang), then check that the call stops.
		for len(orch.Requests()) < 2 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	run, err := eps.Run(ctx, conductor.Task{Text: "q"}, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != conductor.RunCancelled {
		t.Fatalf("status %s\n%+v", run.Status, run.Steps)
	}
	sub.Cancel()
	var kinds []events.Type
	for e := range sub.C() {
		kinds = append(kinds, e.Type)
	}
	if len(kinds) != len(run.Steps)+2 || kinds[0] != events.RunStarted || kinds[len(kinds)-1] != events.RunFinished {
		t.Fatalf("events %v for %d steps", kinds, len(run.Steps))
	}
	last := run.Steps[len(run.Steps)-1]
	if last.Kind != conductor.StepModel || !strings.Contains(last.Error, "context canceled") {
		t.Fatalf("last step %+v", last)
	}
}

// Research mode finishes only through an answer alias (protocol §5):
// without an allowed model of the answer role the episode is refused
// before the orchestrator is asked, saying how to fix it; no model of
// other roles answers in its place.
func TestResearchWithoutAnAnswerModelIsRefused(t *testing.T) {
	cases := []struct {
		name    string
		experts func(url string) []llm.ModelEndpoint
	}{
		{"no model at all", func(string) []llm.ModelEndpoint { return nil }},
		{"a search model only", func(url string) []llm.ModelEndpoint {
			return []llm.ModelEndpoint{expertEndpoint(url, policies.RoleSearch)}
		}},
		{"search and expert roles", func(url string) []llm.ModelEndpoint {
			return []llm.ModelEndpoint{expertEndpoint(url, policies.RoleSearch, policies.RoleExpert)}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var searches recorder
			h := startHub(t, docsServer(&searches, "The answer is 7."))
			orch := scripted(t, scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`))
			expert := scripted(t, scriptedmodel.RawTextReply(`\boxed{7}`))
			endpoints := append([]llm.ModelEndpoint{orchestratorEndpoint(orch.URL() + "/v1")}, tc.experts(expert.URL()+"/v1")...)
			eps, _ := newEpisodes(t, h, "orch", endpoints...)
			run, err := eps.Run(context.Background(), conductor.Task{Text: "what number?"}, &policies.Orchestrator{})
			if err == nil || run.Status != conductor.RunFailed || run.Answer != "" {
				t.Fatalf("status %s answer %q error %v, want a refused run", run.Status, run.Answer, err)
			}
			if !strings.Contains(run.Error, `no allowed model has the "answer" role`) || !strings.Contains(run.Error, `"roles": ["answer"]`) {
				t.Errorf("the error does not say what is wrong and how to fix it: %s", run.Error)
			}
			if n := len(orch.Requests()) + len(expert.Requests()) + len(searches.calls()); n != 0 {
				t.Errorf("%d calls were made; a refused episode makes none", n)
			}
		})
	}
}
