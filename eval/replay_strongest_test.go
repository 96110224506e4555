package eval

import "testing"

// TestEvalReplayStrongestTiesToTheCheaper: of models scoring alike on
// train, strongest (and per-task-best) take the lower-priced, and a model
// without prices is compared by what its answers recorded, not as free.
func TestEvalReplayStrongestTiesToTheCheaper(t *testing.T) {
	low := ReplayModel{Name: "low", PriceIn: 0.1, PriceOut: 0.1}
	high := ReplayModel{Name: "high", PriceIn: 1, PriceOut: 1}
	unpriced := ReplayModel{Name: "apriced", Unpriced: true}
	rows := func(costs map[string]float64) []ReplayRow {
		scores := map[string]float64{"low": 1, "high": 1, "apriced": 1}
		return []ReplayRow{{Question: "What is two plus two?", Scores: scores, CostUSD: costs}}
	}
	cases := []struct {
		name   string
		models []ReplayModel
		rows   []ReplayRow
		want   string
	}{
		{"both priced: the lower price", []ReplayModel{high, low}, rows(nil), "low"},
		{"unpriced and dearer than the priced", []ReplayModel{unpriced, low}, rows(map[string]float64{"apriced": 0.5}), "low"},
		{"unpriced and cheaper than the priced", []ReplayModel{unpriced, high}, rows(map[string]float64{"apriced": 1e-9}), "apriced"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := bestMean(tc.models, tc.rows); got != tc.want {
				t.Fatalf("strongest %s, want %s", got, tc.want)
			}
		})
	}
}
