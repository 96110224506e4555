package policies_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// countedSchema is the built-in search_documents' schema as far as
// research mode reads it: the query, k and ungrouped.
const countedSchema = `{"type":"object","properties":{"query":{"type":"string"},"k":{"type":"number"},` +
	`"ungrouped":{"type":"boolean"}},"required":["query"]}`

// TestResearchVariants runs the same episode in both variants: two
// searches, the first with a 6-character query, then an answer. HLE runs
// both searches for 50 passages; FRAMES runs no query under 10 characters,
// asks for 150 passages, writes the code header from the first turn, and
// asks the answer expert without "Problem:".
func TestResearchVariants(t *testing.T) {
	tests := []struct {
		variant     policies.Variant
		wantK       []float64
		wantHeader  bool
		wantProblem bool
	}{
		{variant: policies.VariantHLE, wantK: []float64{50, 50}, wantProblem: true},
		{variant: policies.VariantFRAMES, wantK: []float64{150}, wantHeader: true},
	}
	for _, tt := range tests {
		t.Run(string(tt.variant), func(t *testing.T) {
			var searches recorder
			h := startHub(t, docsServerWithSchema(&searches, countedSchema, "Paris is the capital of France."))
			orch := scripted(t,
				scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
				scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
				scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`),
			)
			expert := scripted(t,
				scriptedmodel.RawTextReply("<query>Paris?</query>"),
				scriptedmodel.RawTextReply("<query>capital of France</query>"),
				scriptedmodel.RawTextReply("\\boxed{Paris}"),
			)
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"),
				expertEndpoint(expert.URL()+"/v1", policies.RoleSearch, policies.RoleAnswer))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "What is the capital of France?"},
				&policies.Orchestrator{Variant: tt.variant})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunAnswered || run.Answer != "Paris" {
				t.Fatalf("status %s answer %q, trace:\n%s", run.Status, run.Answer, observations(run))
			}
			var ks []float64
			for _, c := range searches.calls() {
				k, _ := c["k"].(float64)
				ks = append(ks, k)
			}
			if !slices.Equal(ks, tt.wantK) {
				t.Errorf("searches asked for %v passages, want %v\n%s", ks, tt.wantK, observations(run))
			}
			short := strings.Contains(observations(run), "shorter than 10 characters; no search")
			if short != (tt.variant == policies.VariantFRAMES) {
				t.Errorf("the 6-character query refused as under 10 characters: %v\n%s", short, observations(run))
			}
			if header := strings.Contains(string(orch.Requests()[0]), "python code and execution outputs"); header != tt.wantHeader {
				t.Errorf("first turn writes the code header: %v, want %v", header, tt.wantHeader)
			}
			reqs := expert.Requests()
			if problem := strings.Contains(string(reqs[len(reqs)-1]), `Problem:\n`); problem != tt.wantProblem {
				t.Errorf("the answer request says \"Problem:\": %v, want %v", problem, tt.wantProblem)
			}
		})
	}
}
