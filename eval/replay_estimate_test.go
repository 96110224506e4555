package eval

import (
	"maps"
	"math"
	"strings"
	"testing"
)

func TestEvalReplayEstimatesLearnFromTrain(t *testing.T) {
	q := strings.Repeat("x", 400) // 100 proxy input tokens
	paid := ReplayModel{Name: "a", PriceIn: 2, PriceOut: 4, SizeB: 8}
	free := ReplayModel{Name: "a", SizeB: 8}
	proxy := (2*100 + 4*256) / 1e6
	rec := func(cost, lat float64) ReplayRow {
		return ReplayRow{Question: q, CostUSD: map[string]float64{"a": cost}, LatencyS: map[string]float64{"a": lat}}
	}
	cases := []struct {
		name     string
		model    ReplayModel
		train    []ReplayRow
		scored   ReplayRow
		wantCost float64
		wantLat  float64
	}{
		{"nothing recorded: the proxy and the size model", paid, []ReplayRow{{Question: q}},
			ReplayRow{Question: q}, proxy, ModelledLatencySeconds(paid)},
		{"recorded costs scale the proxy", paid, []ReplayRow{rec(3*proxy, 1), rec(3*proxy, 3)},
			ReplayRow{Question: q}, 3 * proxy, 2},
		{"recorded input tokens are known before answering", paid, []ReplayRow{{Question: q}},
			ReplayRow{Question: q, TokensIn: map[string]float64{"a": 1000}}, (2*1000 + 4*256) / 1e6, ModelledLatencySeconds(paid)},
		{"a free model costs its mean recorded cost", free, []ReplayRow{rec(0.01, 5), rec(0.03, 5)},
			ReplayRow{Question: q}, 0.02, 5},
		{"the scored row's own outcome is not read", paid, []ReplayRow{{Question: q}},
			ReplayRow{Question: q, CostUSD: map[string]float64{"a": 9}, LatencyS: map[string]float64{"a": 0.01}, TokensOut: map[string]float64{"a": 1e6}},
			proxy, ModelledLatencySeconds(paid)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newAnswerEstimates([]ReplayModel{tc.model}, tc.train, EstimateChoice{}).candidates([]ReplayModel{tc.model}, tc.scored)
			if len(c) != 1 || math.Abs(c[0].Cost-tc.wantCost) > 1e-12 || math.Abs(c[0].Latency-tc.wantLat) > 1e-12 {
				t.Fatalf("candidates %+v, want cost %v latency %v", c, tc.wantCost, tc.wantLat)
			}
		})
	}
}

// TestEvalReplayRoutersNeverReadAScoredRowsOutcomes changes what each
// scored row records of its answers (cost, latency, output tokens) and
// checks every router still chooses the same model: those are outcomes of
// answering, unknown when the choice is made. Making the strong model free
// and instant on the scored rows would pull trivia to it if they were read.
func TestEvalReplayRoutersNeverReadAScoredRowsOutcomes(t *testing.T) {
	set := syntheticSet(t)
	for i := range set.Train {
		set.Train[i].CostUSD = map[string]float64{"cheap": 0.001, "big": 0.01}
		set.Train[i].LatencyS = map[string]float64{"cheap": 1, "big": 4}
	}
	altered := func(r ReplayRow) ReplayRow {
		r.CostUSD = map[string]float64{"cheap": 5, "big": 0}
		r.LatencyS = map[string]float64{"cheap": 60, "big": 0.001}
		r.TokensOut = map[string]float64{"cheap": 1e6, "big": 1}
		r.Scores = maps.Clone(r.Scores)
		return r
	}
	for _, router := range RouterNames {
		t.Run(router, func(t *testing.T) {
			pols := routerSweep(set, ReplayOptions{CostWeights: []float64{0.2}, Latency: 0.2}, router)
			cheap := 0
			for _, r := range set.Test {
				got, want := pols[0].Choose(altered(r)), pols[0].Choose(r)
				if got != want {
					t.Fatalf("%q: chose %s once its recorded outcomes changed, %s before", r.Question, got, want)
				}
				if want == "cheap" {
					cheap++
				}
			}
			if cheap == 0 {
				t.Fatal("never chose the cheap model: the check shows nothing")
			}
		})
	}
}
