package eval

import (
	"slices"
	"strings"
	"testing"
)

// A replay reports its three stages in order, each counting up to its
// total one step at a time, the operating points' folds included (they
// are routed side by side; -race checks the counting).
func TestEvalReplayReportsItsProgress(t *testing.T) {
	set := syntheticSet(t)
	var got []ReplayProgress
	opts := ReplayOptions{Policies: []string{SinglesName, KNNName, LogRegName}, CostWeights: []float64{0, 0.2},
		Progress: func(p ReplayProgress) { got = append(got, p) }}
	if _, err := Replay(set, opts); err != nil {
		t.Fatal(err)
	}
	wantTotal := map[string]int{StageTraining: 2, StageScoring: 2 + 2*2, StageOperating: 2 * OperatingFolds}
	var stages []string
	last := map[string]int{}
	for _, p := range got {
		if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
			stages = append(stages, p.Stage)
			if p.Done != 0 {
				t.Fatalf("stage %q starts at %d", p.Stage, p.Done)
			}
		} else if p.Done != last[p.Stage]+1 || p.Detail == "" {
			t.Fatalf("stage %q steps from %d to %d (detail %q)", p.Stage, last[p.Stage], p.Done, p.Detail)
		}
		if p.Total != wantTotal[p.Stage] {
			t.Fatalf("stage %q total %d, want %d", p.Stage, p.Total, wantTotal[p.Stage])
		}
		last[p.Stage] = p.Done
	}
	if want := []string{StageTraining, StageScoring, StageOperating}; !slices.Equal(stages, want) {
		t.Fatalf("stages %q, want %q", stages, want)
	}
	for stage, total := range wantTotal {
		if last[stage] != total {
			t.Errorf("stage %q ended at %d of %d", stage, last[stage], total)
		}
	}
}

// The validation split chooses no operating point, so it has no such stage;
// a replay without Progress reports nothing and runs as before.
func TestEvalReplayValidationProgressHasNoOperatingStage(t *testing.T) {
	set, err := syntheticSet(t).ValidationSet()
	if err != nil {
		t.Fatal(err)
	}
	var stages []string
	opts := ReplayOptions{Policies: []string{KNNName}, CostWeights: []float64{0.2},
		Progress: func(p ReplayProgress) {
			if !slices.Contains(stages, p.Stage) {
				stages = append(stages, p.Stage)
			}
		}}
	if _, err := Replay(set, opts); err != nil {
		t.Fatal(err)
	}
	if want := []string{StageTraining, StageScoring}; !slices.Equal(stages, want) {
		t.Fatalf("stages %q, want %q", stages, want)
	}
	opts.Progress, opts.Policies = nil, []string{SinglesName, KNNName}
	rep, err := Replay(set, opts)
	if err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, "no operating point on the validation split") {
		t.Errorf("the report does not say why it has no operating point:\n%s", notes)
	}
}

// Routers scored without any single model have no sweep and so no
// operating point: the replay then has no operating stage, rather than one
// that starts and never counts up.
func TestEvalReplayRoutersAloneHaveNoOperatingStage(t *testing.T) {
	var stages []string
	last := map[string]ReplayProgress{}
	opts := ReplayOptions{Policies: []string{KNNName}, CostWeights: []float64{0, 0.2},
		Progress: func(p ReplayProgress) {
			if !slices.Contains(stages, p.Stage) {
				stages = append(stages, p.Stage)
			}
			last[p.Stage] = p
		}}
	if _, err := Replay(syntheticSet(t), opts); err != nil {
		t.Fatal(err)
	}
	if want := []string{StageTraining, StageScoring}; !slices.Equal(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	for stage, p := range last {
		if p.Done != p.Total {
			t.Errorf("stage %q ended at %d of %d", stage, p.Done, p.Total)
		}
	}
}
