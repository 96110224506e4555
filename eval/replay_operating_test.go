package eval

import (
	"fmt"
	"strings"
	"testing"
)

// foldRows lays out out-of-fold rows for pickOperating: per family, n rows
// whose score and cost share of the strongest's at grid weight j are
// score[j] and share[j] (the strongest scoring strong and costing 1).
type famFigures struct {
	name         string
	n            int
	score, share []float64
	strong       float64
}

func foldRows(fams ...famFigures) []foldRow {
	var rows []foldRow
	for _, f := range fams {
		for range f.n {
			rows = append(rows, foldRow{cluster: f.name, scores: f.score, costs: f.share, strongScore: f.strong, strongCostUS: 1})
		}
	}
	return rows
}

// even is the same figures for ten families.
func even(score, share []float64, strong float64) []famFigures {
	var out []famFigures
	for i := range 10 {
		out = append(out, famFigures{fmt.Sprint("f", i), 20, score, share, strong})
	}
	return out
}

func TestEvalPickOperatingPoint(t *testing.T) {
	grid := []float64{0, 0.1, 0.2}
	cases := []struct {
		name    string
		rows    []foldRow
		weight  float64
		reached bool
	}{
		{"the most accurate weight within half the cost",
			foldRows(even([]float64{1, 0.9, 0.8}, []float64{0.9, 0.45, 0.2}, 0.85)...), 0.1, true},
		{"within budget but short of the strongest",
			foldRows(even([]float64{1, 0.9, 0.8}, []float64{0.9, 0.45, 0.2}, 0.95)...), 0.1, false},
		{"a tie in accuracy goes to the cheaper weight",
			foldRows(even([]float64{1, 0.9, 0.9}, []float64{0.9, 0.45, 0.2}, 0.85)...), 0.2, true},
		{"nothing within budget: the cheapest weight",
			foldRows(even([]float64{1, 0.9, 0.8}, []float64{0.9, 0.7, 0.6}, 0.85)...), 0.2, false},
		// At weight 0.1 four families spend the strongest's whole cost and
		// six none: 40% on average, but a redraw of the ten families lands
		// above half (six dear ones or more) in about a sixth of draws.
		{"the budget must hold when the family mix changes", foldRows(append(
			even([]float64{1, 0.9, 0.8}, []float64{0.9, 0, 0.1}, 0.85)[:6],
			famFigures{"dear0", 20, []float64{1, 0.9, 0.8}, []float64{0.9, 1, 0.1}, 0.85},
			famFigures{"dear1", 20, []float64{1, 0.9, 0.8}, []float64{0.9, 1, 0.1}, 0.85},
			famFigures{"dear2", 20, []float64{1, 0.9, 0.8}, []float64{0.9, 1, 0.1}, 0.85},
			famFigures{"dear3", 20, []float64{1, 0.9, 0.8}, []float64{0.9, 1, 0.1}, 0.85})...), 0.2, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op := pickOperating(tc.rows, grid, KNNName)
			if op.Weight != tc.weight || op.Reached != tc.reached || op.Policy != routerPolicyName(KNNName, tc.weight) {
				t.Fatalf("operating point %+v, want weight %v reached %v", op, tc.weight, tc.reached)
			}
		})
	}
}

// familySet is a pool of ten families, "cheap" (a tenth of big's price)
// solving every question of the first easy of them and none of the rest;
// big solves all. Test rows are the given ones.
func familySet(easy int, test []ReplayRow) *ReplaySet {
	set := &ReplaySet{Dir: "mem", Test: test, Models: []ReplayModel{
		{Name: "cheap", SizeB: 8, PriceIn: 0.1, PriceOut: 0.1},
		{Name: "big", SizeB: 70, PriceIn: 1, PriceOut: 1},
	}}
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"}
	for f, w := range words {
		for i := range 60 {
			r := row("", fmt.Sprintf("%s %s question number %d about %s", w, w, i, w), map[string]float64{"cheap": 0, "big": 1})
			if f < easy {
				r.Scores["cheap"] = 1
			}
			r.Task = w
			set.Train = append(set.Train, r)
		}
	}
	return set
}

func TestEvalOperatingPointOnTrainFolds(t *testing.T) {
	cases := []struct {
		name string
		easy int
		// hardOnBig: the hard families stay on big at the chosen weight.
		hardOnBig, reached bool
	}{
		// Eight easy families on cheap, two hard on big: 28% of big's cost.
		{"hard families stay on big within the budget", 8, true, true},
		// Five hard families on big cost 55%: over the budget, and no
		// weight of the grid prices a sure answer below big's cost.
		{"over the budget at every weight: not reached", 5, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op, err := chooseOperatingPoint(familySet(tc.easy, nil), ReplayOptions{}, MFName)
			if err != nil {
				t.Fatal(err)
			}
			if op.Reached != tc.reached || (op.CVAccuracy == 1) != tc.hardOnBig || (op.CVShareHigh <= OperatingBudget) != tc.reached {
				t.Fatalf("operating point %+v, want hard families on big: %v", op, tc.hardOnBig)
			}
		})
	}
}

func TestEvalOperatingPointReadsNoTestRow(t *testing.T) {
	var test []ReplayRow
	for i := range 50 { // test rows on which cheap would be perfect
		test = append(test, row("", fmt.Sprintf("juliet juliet question number %d about juliet", 5000+i), map[string]float64{"cheap": 1, "big": 0}))
	}
	without, err := chooseOperatingPoint(familySet(8, nil), ReplayOptions{}, KNNName)
	if err != nil {
		t.Fatal(err)
	}
	with, err := chooseOperatingPoint(familySet(8, test), ReplayOptions{}, KNNName)
	if err != nil {
		t.Fatal(err)
	}
	if *with != *without {
		t.Fatalf("test rows moved the operating point: %+v, without them %+v", with, without)
	}
}

// TestEvalOperatingPointSkippedWhenTrainIsTooSmall: a train split no fold
// can learn from and route (one row) still gives its sweep; the operating
// point is left out and a note says why.
func TestEvalOperatingPointSkippedWhenTrainIsTooSmall(t *testing.T) {
	test := []ReplayRow{row("", "name a river", map[string]float64{"cheap": 0, "big": 1})}
	cases := []struct {
		name   string
		train  int
		chosen bool
	}{
		{"one train row", 1, false},
		{"sixty train rows", 60, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set := familySet(1, test)
			set.Train = set.Train[:tc.train]
			rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, KNNName}, CostWeights: []float64{0}})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Sweeps) != 1 || (rep.Sweeps[0].Operating != nil) != tc.chosen {
				t.Fatalf("sweeps %+v, want an operating point: %v", rep.Sweeps, tc.chosen)
			}
			notes := strings.Join(rep.Notes, "\n")
			if skipped := strings.Contains(notes, "no operating point: the train split (1 row) is too small"); skipped == tc.chosen {
				t.Fatalf("notes:\n%s", notes)
			}
		})
	}
}
