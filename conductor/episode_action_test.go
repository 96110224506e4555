package conductor

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

// loopPolicy calls the same tool forever without ending its turn.
type loopPolicy struct{}

func (p loopPolicy) Begin(st *State) Decider { return Begin[int](p, st) }
func (loopPolicy) Start(*State) int          { return 0 }
func (loopPolicy) Decide(_ *State, n int, _ *Outcome) (Action, int) {
	return toolAct("srv__go", `{}`), n + 1
}

func TestEngineRunsActions(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal}, "go")
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	carried := toolAct("srv__go", `{}`)
	carried.EndTurn = true
	noted := answerAct("done")
	noted.Notes = []string{"first note", "second note"}
	var heard []*Outcome
	cases := []struct {
		name    string
		policy  Policy
		status  RunStatus
		failed  bool
		kinds   []StepKind
		turns   int
		outcome func(t *testing.T)
	}{
		{"a hub failure fails the run with its reason",
			&scriptPolicy{turns: [][]Action{{{Kind: ActFail, Err: errors.New("no answer model")}}}},
			RunFailed, true, nil, 1, nil},
		{"notes are recorded before the action, in order",
			&scriptPolicy{turns: [][]Action{{noted}}},
			RunAnswered, false, []StepKind{StepObservation, StepObservation, StepAnswer}, 1, nil},
		{"an action that ends the turn hands its outcome to the next turn",
			&scriptPolicy{turns: [][]Action{{carried}, {answerAct("ok")}}, hear: func(o *Outcome) { heard = append(heard, o) }},
			RunAnswered, false, []StepKind{StepTool, StepAnswer}, 2, func(t *testing.T) {
				if len(heard) != 1 || heard[0].Kind != ActTool || heard[0].Failed() {
					t.Fatalf("outcomes heard %+v", heard)
				}
			}},
		{"a turn that never ends is cut",
			loopPolicy{}, RunFailed, true, nil, 1, func(t *testing.T) {
				if len(tools.called) != MaxActionsPerTurn {
					t.Fatalf("%d calls, want %d", len(tools.called), MaxActionsPerTurn)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tools.called, heard = nil, nil
			run, err := eps.Run(context.Background(), Task{Text: "t"}, tc.policy)
			if (err != nil) != tc.failed || run.Status != tc.status || run.Totals.Turns != tc.turns {
				t.Fatalf("status %s after %d turns, err %v", run.Status, run.Totals.Turns, err)
			}
			if tc.failed && (run.Error == "" || !strings.Contains(err.Error(), run.Error)) {
				t.Fatalf("run error %q, returned error %v", run.Error, err)
			}
			if tc.kinds != nil {
				var kinds []StepKind
				for _, s := range run.Steps {
					kinds = append(kinds, s.Kind)
				}
				if strings.Join(stepKinds(kinds), ",") != strings.Join(stepKinds(tc.kinds), ",") {
					t.Fatalf("steps %v, want %v", kinds, tc.kinds)
				}
			}
			if tc.outcome != nil {
				tc.outcome(t)
			}
		})
	}
}

func stepKinds(kinds []StepKind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
	}
	return out
}
