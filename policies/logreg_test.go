package policies_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// syntheticPool is a pool where the right routing is known: "cheap" solves
// the trivia questions only, "big" solves both kinds.
func syntheticPool(n int) []policies.KNNExample {
	var out []policies.KNNExample
	for i := range n {
		if i%2 == 0 {
			out = append(out, policies.KNNExample{Question: fmt.Sprintf("integrate the polynomial x^%d derivative calculus", i),
				Scores: map[string]float64{"cheap": 0, "big": 1}})
		} else {
			out = append(out, policies.KNNExample{Question: fmt.Sprintf("which city is the capital of country %d trivia", i),
				Scores: map[string]float64{"cheap": 1, "big": 1}})
		}
	}
	return out
}

func TestLogRegLearnsWhichModelSolvesWhat(t *testing.T) {
	m := policies.TrainLogReg(syntheticPool(200), policies.LogRegOptions{})
	cands := []policies.KNNCandidate{{Name: "cheap", Cost: 0.1}, {Name: "big", Cost: 1}}
	cases := []struct {
		name     string
		question string
		weights  policies.UtilityWeights
		want     string
	}{
		{"math needs the big model", "integrate the polynomial x^3 derivative calculus", policies.UtilityWeights{Cost: 0.2}, "big"},
		{"trivia goes to the cheap model", "which city is the capital of country 7 trivia", policies.UtilityWeights{Cost: 0.2}, "cheap"},
		{"a huge cost weight picks cheap even for math", "integrate the polynomial x^3 derivative calculus", policies.UtilityWeights{Cost: 5}, "cheap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := m.Choose(tc.question, cands, tc.weights)
			if !ok || c.Name != tc.want {
				t.Fatalf("picked %+v (ok %v), want %s; predictions %v", c, ok, tc.want, m.Predict(tc.question, []string{"cheap", "big"}))
			}
		})
	}
	p := m.Predict("integrate the polynomial x^9 derivative calculus", []string{"cheap", "big", "unknown"})
	if _, ok := p["unknown"]; ok || p["cheap"] > 0.2 || p["big"] < 0.8 {
		t.Fatalf("predictions %v: want cheap low, big high, unknown absent", p)
	}
}

func TestLogRegIsDeterministicAndCalibratedOnConstantScores(t *testing.T) {
	ex := []policies.KNNExample{}
	for i := range 3000 {
		s := 0.0
		if i%4 == 0 {
			s = 1
		}
		ex = append(ex, policies.KNNExample{Question: fmt.Sprintf("same words here %d", i%3), Scores: map[string]float64{"m": s}})
	}
	a := policies.TrainLogReg(ex, policies.LogRegOptions{Seed: 3}).Predict("same words here 0", []string{"m"})
	b := policies.TrainLogReg(ex, policies.LogRegOptions{Seed: 3}).Predict("same words here 0", []string{"m"})
	if a["m"] != b["m"] {
		t.Fatalf("two trainings differ: %v, %v", a, b)
	}
	// A quarter of the examples succeed, whatever the text: the prediction
	// is near 0.25.
	if math.Abs(a["m"]-0.25) > 0.03 {
		t.Fatalf("predicted %v, want about 0.25", a["m"])
	}
}

func TestBlendAveragesItsRouters(t *testing.T) {
	pool := syntheticPool(100)
	lr := policies.TrainLogReg(pool, policies.LogRegOptions{})
	knn := policies.TrainKNN(pool, 0)
	b := &policies.Blend{Routers: []policies.Router{lr, knn}}
	q := "which city is the capital of country 3 trivia"
	want := (lr.Predict(q, []string{"cheap"})["cheap"] + knn.Predict(q, []string{"cheap"})["cheap"]) / 2
	if got := b.Predict(q, []string{"cheap"})["cheap"]; math.Abs(got-want) > 1e-12 {
		t.Fatalf("blend %v, want %v", got, want)
	}
	if c := b.Candidates(); len(c) != 2 || c[0] != "big" || c[1] != "cheap" || b.Len() != 100 {
		t.Fatalf("candidates %v, len %d", c, b.Len())
	}
}

func TestWeightsFromPreferences(t *testing.T) {
	cases := []struct {
		name          string
		cost, latency float64
		want          policies.UtilityWeights
	}{
		{"balanced", 0.5, 0.5, policies.UtilityWeights{Cost: 0.05, Latency: 0.05}},
		{"thrifty", 1, 0, policies.UtilityWeights{Cost: 0.1}},
		{"out of range is clamped", 3, -1, policies.UtilityWeights{Cost: 0.1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := policies.WeightsFromPreferences(policies.Preferences{CostWeight: tc.cost, LatencyWeight: tc.latency})
			if math.Abs(got.Cost-tc.want.Cost) > 1e-12 || math.Abs(got.Latency-tc.want.Latency) > 1e-12 {
				t.Fatalf("%+v, want %+v", got, tc.want)
			}
		})
	}
	k := &policies.KNNPolicy{}
	k.UsePreferences(policies.Preferences{CostWeight: 0.9})
	if math.Abs(k.Weights.Cost-0.09) > 1e-12 {
		t.Fatalf("UsePreferences set %+v", k.Weights)
	}
}
