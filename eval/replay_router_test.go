package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// syntheticSet is a pool where the right routing is known: "cheap" (a
// tenth of the price) solves the trivia questions only, "big" solves both
// kinds, so routing trivia to cheap and the rest to big is perfect at a bit
// over half big's cost.
func syntheticSet(t *testing.T) *ReplaySet {
	t.Helper()
	mk := func(n, offset int) []ReplayRow {
		var rows []ReplayRow
		for i := range n {
			j := i + offset
			if i%2 == 0 {
				rows = append(rows, row("", fmt.Sprintf("integrate the polynomial x^%d derivative calculus", j), map[string]float64{"cheap": 0, "big": 1}))
			} else {
				rows = append(rows, row("", fmt.Sprintf("which city is the capital of country %d trivia", j), map[string]float64{"cheap": 1, "big": 1}))
			}
		}
		return rows
	}
	cands := `[{"name":"cheap","input_price":0.1,"output_price":0.1,"size":"8B"},{"name":"big","input_price":1,"output_price":1,"size":"70B"}]`
	set, err := LoadReplay(writeReplayDir(t, mk(300, 0), mk(60, 1000), cands))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func TestEvalReplayRoutersFindTheKnownRouting(t *testing.T) {
	set := syntheticSet(t)
	for _, router := range RouterNames {
		t.Run(router, func(t *testing.T) {
			rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, router}, CostWeights: []float64{0.2}})
			if err != nil {
				t.Fatal(err)
			}
			p, ok := rep.Find(routerPolicyName(router, 0.2))
			big, _ := rep.Find("fixed:big")
			if !ok || p.Accuracy != 1 || math.Abs(p.Calls["cheap"]-0.5) > 1e-9 || p.CostUSD >= 0.6*big.CostUSD {
				t.Fatalf("%s: accuracy %.3f, cheap share %.2f, cost %.3g vs big %.3g", p.Name, p.Accuracy, p.Calls["cheap"], p.CostUSD, big.CostUSD)
			}
			// The hull runs straight from the weak model's point to the
			// perfect routing's, then stays flat: APGR is one minus half
			// the ramp's share of the cost range; PGR 50% is halfway up it.
			s := rep.Sweeps[0]
			ramp := (per1k(p.CostUSD) - s.WeakCost) / (s.StrongCost - s.WeakCost)
			wantCPT := (s.WeakCost + per1k(p.CostUSD)) / 2
			if s.Strong != StrongestName || s.StrongAcc != 1 || math.Abs(s.APGR-(1-ramp/2)) > 1e-9 ||
				s.CPT50 == nil || math.Abs(*s.CPT50-wantCPT) > 1e-9 {
				t.Fatalf("summary %+v, want APGR %v and CPT50 %v", s, 1-ramp/2, wantCPT)
			}
			// Math on big costs 55% of big everywhere: over the budget at
			// every weight, so the cheapest weight, which still routes
			// perfectly, and not reached.
			if op := s.Operating; op == nil || op.Reached || op.CVShareHigh <= OperatingBudget || op.Accuracy != 1 {
				t.Fatalf("operating point %+v", s.Operating)
			}
		})
	}
}

func TestEvalReplayAIQUsesTheFixedGrid(t *testing.T) {
	set := syntheticSet(t)
	var aiq []float64
	for _, weights := range [][]float64{{0}, {0, 0.05, 0.1}, {1, 0.7, 0.2, 0.01}} {
		rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, CheapestName, LogRegName}, CostWeights: weights})
		if err != nil {
			t.Fatal(err)
		}
		aiq = append(aiq, rep.Sweeps[0].AIQ)
	}
	if aiq[0] != aiq[1] || aiq[1] != aiq[2] {
		t.Fatalf("AIQ changes with the printed weights: %v", aiq)
	}
	if len(AIQGrid) != 75 || AIQGrid[0] != 0 || AIQGrid[60] != 0.3 || AIQGrid[74] != 1 {
		t.Fatalf("grid %v", AIQGrid)
	}
}

// An operating point names its weight in the report and in JSON: every
// weight of the grid prints as its decimal, at most three places.
func TestEvalReplayGridWeightsPrintAsDecimals(t *testing.T) {
	for i, w := range AIQGrid {
		name := routerPolicyName(MFName, w)
		if got := strings.TrimPrefix(name, MFName+"@"); len(got) > 5 {
			t.Errorf("grid weight %d prints as %s", i, name)
		}
		raw, err := json.Marshal(OperatingPoint{Weight: w})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(raw), "0000000") || strings.Contains(string(raw), "9999999") {
			t.Errorf("grid weight %d encodes as %s", i, raw)
		}
	}
}

func TestEvalReplayStrongestIsBestOnTrain(t *testing.T) {
	// "pricey" costs most but scores worst on train; "good" is best on
	// train; "twin" ties with good on train but costs more.
	train := []ReplayRow{row("", "q1", map[string]float64{"pricey": 0, "good": 1, "twin": 1}),
		row("", "q2", map[string]float64{"pricey": 1, "good": 1, "twin": 1})}
	test := []ReplayRow{row("", "q3", map[string]float64{"pricey": 1, "good": 0, "twin": 0})}
	cands := `[{"name":"pricey","input_price":9,"output_price":9},{"name":"good","input_price":1,"output_price":1},{"name":"twin","input_price":2,"output_price":2}]`
	set, err := LoadReplay(writeReplayDir(t, train, test, cands))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{StrongestName}})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := rep.Find(StrongestName); s.Calls["good"] != 1 {
		t.Fatalf("strongest called %v, want good", s.Calls)
	}
}

func TestEvalReplayValidationSetHoldsOutTrainOnly(t *testing.T) {
	set := syntheticSet(t)
	v, err := set.ValidationSet()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Train)+len(v.Test) != len(set.Train) || len(v.Test) == 0 || v.splitName() != SplitValidation {
		t.Fatalf("validation %d + %d rows of %d", len(v.Train), len(v.Test), len(set.Train))
	}
	inTrain := map[string]bool{}
	for _, r := range set.Train {
		inTrain[r.Question] = true
	}
	held := map[string]bool{}
	for _, r := range v.Test {
		if !inTrain[r.Question] {
			t.Fatalf("validation row %q is not from train", r.Question)
		}
		held[r.Question] = true
	}
	for _, r := range v.Train {
		if held[r.Question] {
			t.Fatalf("%q is on both sides", r.Question)
		}
	}
}

func TestEvalReplayRoutersAreListedAndSelectable(t *testing.T) {
	set := syntheticSet(t)
	for _, router := range RouterNames {
		t.Run(router, func(t *testing.T) {
			if !slices.Contains(DefaultReplayPolicies, router) {
				t.Fatalf("%s is not in the default policies %v", router, DefaultReplayPolicies)
			}
			pols, err := BuildReplayPolicies(set, ReplayOptions{Policies: []string{router}, CostWeights: []float64{0, 0.1}})
			if err != nil {
				t.Fatal(err)
			}
			if len(pols) != 2 || pols[0].Name() != router+"@0" || pols[1].Name() != router+"@0.1" {
				t.Fatalf("policies %v", names(pols))
			}
		})
	}
	if _, err := BuildReplayPolicies(set, ReplayOptions{Policies: []string{"mff"}}); err == nil || !strings.Contains(err.Error(), "mf)") {
		t.Fatalf("unknown router: %v", err)
	}
}

func names(pols []ReplayPolicy) []string {
	out := make([]string, len(pols))
	for i, p := range pols {
		out[i] = p.Name()
	}
	return out
}
