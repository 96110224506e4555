package policies_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

func TestResearchEpisodeSearchThenAnswer(t *testing.T) {
	var searches recorder
	h := startHub(t, docsServer(&searches, "Paris is the capital of France.", "Lyon is a French city."))
	orch := scripted(t,
		scriptedmodel.ToolCallReply("Need data.", "search", `{"model": "search-1"}`).WithUsage(1000, 50),
		scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`).WithUsage(2000, 40),
	)
	expert := scripted(t,
		scriptedmodel.RawTextReply("<query>capital of France</query>").WithUsage(300, 10),
		scriptedmodel.RawTextReply("It is Paris, so \\boxed{Paris}.").WithUsage(500, 20),
	)
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"),
		expertEndpoint(expert.URL()+"/v1", policies.RoleSearch, policies.RoleAnswer))

	run, err := eps.Run(context.Background(), conductor.Task{Text: "What is the capital of France?"}, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != conductor.RunAnswered || run.Answer != "Paris" {
		t.Fatalf("status %s answer %q, trace:\n%s", run.Status, run.Answer, observations(run))
	}
	if got := searches.calls(); len(got) != 1 || got[0]["query"] != "capital of France" {
		t.Fatalf("search_documents calls = %v", got)
	}
	wantUSD := cost(3000, 90, orchIn, orchOut) + cost(800, 30, expertIn, expertOut) + 0.001
	if !approx(run.Totals.USD, wantUSD) {
		t.Fatalf("total USD = %.12f, want %.12f", run.Totals.USD, wantUSD)
	}
	if run.Totals.TokensIn != 3800 || run.Totals.TokensOut != 120 || run.Totals.ModelCalls != 4 || run.Totals.ToolCalls != 1 {
		t.Fatalf("totals = %+v", run.Totals)
	}
	answerPrompt := string(expert.Requests()[1])
	if !strings.Contains(answerPrompt, "Doc 1: Lyon is a French city.") || !strings.Contains(answerPrompt, "Doc 2: Paris is the capital") {
		t.Fatalf("answer prompt lacks the documents in reverse rank order: %s", answerPrompt)
	}
	if strings.Contains(string(orch.Requests()[0]), "gpt-5") {
		t.Fatal("the orchestrator was shown a real model name")
	}
}

func TestResearchStepsRecordModelAndLocality(t *testing.T) {
	var searches recorder
	h := startHub(t, docsServer(&searches, "a passage"))
	orch := scripted(t, scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`).WithUsage(10, 1))
	expert := scripted(t, scriptedmodel.RawTextReply("\\boxed{\\frac{1}{2}}").WithUsage(7, 3))
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleAnswer))
	run, err := eps.Run(context.Background(), conductor.Task{Text: "half?"}, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Answer != `\frac{1}{2}` {
		t.Fatalf("answer %q", run.Answer)
	}
	want := []conductor.Step{
		{Kind: conductor.StepModel, Alias: "orchestrator", Endpoint: "orch", Model: "nvidia/Nemotron-Orchestrator-8B", Locality: hub.LocalityLocal, TokensIn: 10, TokensOut: 1},
		{Kind: conductor.StepModel, Alias: "answer-1", Endpoint: "big", Model: "gpt-5", Locality: hub.LocalityRemote, TokensIn: 7, TokensOut: 3},
		{Kind: conductor.StepAnswer, Text: `\frac{1}{2}`},
	}
	if len(run.Steps) != len(want) {
		t.Fatalf("got %d steps: %+v", len(run.Steps), run.Steps)
	}
	for i, w := range want {
		g := run.Steps[i]
		if g.Kind != w.Kind || g.Alias != w.Alias || g.Endpoint != w.Endpoint || g.Model != w.Model ||
			g.Locality != w.Locality || g.TokensIn != w.TokensIn || g.TokensOut != w.TokensOut || g.Estimated || g.Error != "" {
			t.Errorf("step %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestResearchTurnCap(t *testing.T) {
	var searches recorder
	h := startHub(t, docsServer(&searches))
	orch := scripted(t, scriptedmodel.RawTextReply("<think>\nhmm\n</think>\nThe answer is 42."))
	orch.SetLoop(true)
	expert := scripted(t)
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleAnswer))
	for _, tc := range []struct {
		name     string
		maxTurns int
		want     int
	}{
		{"default is 50", 0, 50},
		{"configured 3", 3, 3},
		{"above 50 is 50", 80, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, err := eps.Run(context.Background(), conductor.Task{Text: "q", MaxTurns: tc.maxTurns}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunNoAnswer || run.Totals.Turns != tc.want || run.Totals.ModelCalls != tc.want {
				t.Fatalf("status %s turns %d model calls %d", run.Status, run.Totals.Turns, run.Totals.ModelCalls)
			}
			if !strings.Contains(run.Error, "no answer within") {
				t.Fatalf("error %q", run.Error)
			}
		})
	}
}

// With DropSearchWithDocuments (the FRAMES setting), the turn after a
// search that found documents offers no search tool, and a search call
// then is refused as not offered; without it search stays on offer.
func TestResearchDropsSearchOnceDocumentsExist(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(map[bool]string{false: "off", true: "on"}[drop], func(t *testing.T) {
			var searches recorder
			h := startHub(t, docsServer(&searches, "Paris is the capital of France."))
			orch := scripted(t,
				scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
				scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
				scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`),
			)
			replies := []scriptedmodel.Reply{scriptedmodel.RawTextReply("<query>capital of France</query>")}
			if !drop { // the second search is made, and writes its query
				replies = append(replies, scriptedmodel.RawTextReply("<query>French capital city</query>"))
			}
			expert := scripted(t, append(replies, scriptedmodel.RawTextReply("\\boxed{Paris}"))...)
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"),
				expertEndpoint(expert.URL()+"/v1", policies.RoleSearch, policies.RoleAnswer))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "What is the capital of France?"},
				&policies.Orchestrator{DropSearchWithDocuments: drop})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunAnswered || run.Answer != "Paris" {
				t.Fatalf("status %s answer %q, trace:\n%s", run.Status, run.Answer, observations(run))
			}
			reqs := orch.Requests()
			if len(reqs) != 3 {
				t.Fatalf("%d orchestrator requests, want 3", len(reqs))
			}
			if !strings.Contains(string(reqs[0]), `"name":"search"`) {
				t.Fatal("the first turn, with no documents yet, offers no search")
			}
			offered := strings.Contains(string(reqs[1]), `"name":"search"`)
			refused := strings.Contains(observations(run), `tool "search" is not offered this turn`)
			if wantSearches := map[bool]int{false: 2, true: 1}[drop]; offered == drop || refused != drop || len(searches.calls()) != wantSearches {
				t.Fatalf("second turn offers search: %v, refused: %v, %d searches; want %d\n%s",
					offered, refused, len(searches.calls()), wantSearches, observations(run))
			}
		})
	}
}
