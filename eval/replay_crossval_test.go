package eval

import (
	"math"
	"strings"
	"testing"
)

func TestEvalCostScaleIsTheMeanDearestCost(t *testing.T) {
	models := []ReplayModel{{Name: "cheap", PriceIn: 0.1, PriceOut: 0.1}, {Name: "big", PriceIn: 1, PriceOut: 1}}
	short, long := strings.Repeat("a", 40), strings.Repeat("b", 4000)
	cases := []struct {
		name  string
		train []ReplayRow
		want  float64
	}{
		{"no rows", nil, 0},
		{"one question", []ReplayRow{row("", short, nil)}, ProxyCostUSD(models[1], short)},
		{"a short and a long question", []ReplayRow{row("", short, nil), row("", long, nil)},
			(ProxyCostUSD(models[1], short) + ProxyCostUSD(models[1], long)) / 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := costScale(&ReplaySet{Models: models, Train: tc.train})
			if math.Abs(got-tc.want) > 1e-15 {
				t.Fatalf("cost scale %g, want %g", got, tc.want)
			}
		})
	}
}

func TestEvalClusterWeightsDrawWholeFamilies(t *testing.T) {
	cases := []struct {
		name string
		rows []foldRow
		// size of each row's cluster, in row order
		sizes []int
	}{
		{"families of one and three rows",
			[]foldRow{{cluster: "a"}, {cluster: "b"}, {cluster: "b"}, {cluster: "b"}}, []int{1, 3, 3, 3}},
		{"rows without a family are their own cluster",
			[]foldRow{{cluster: "\x00q1"}, {cluster: "\x00q2"}, {cluster: "\x00q3"}}, []int{1, 1, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			draws := clusterWeights(tc.rows)
			if len(draws) != OperatingResamples {
				t.Fatalf("%d draws, want %d", len(draws), OperatingResamples)
			}
			clusters := map[string]bool{}
			for _, r := range tc.rows {
				clusters[r.cluster] = true
			}
			for _, w := range draws {
				// Every row of a cluster weighs the same, and the draw
				// picks as many clusters as there are.
				picked := 0.0
				for i, r := range tc.rows {
					for j, o := range tc.rows {
						if r.cluster == o.cluster && w[i] != w[j] {
							t.Fatalf("rows of %q weigh %v and %v", r.cluster, w[i], w[j])
						}
					}
					picked += w[i] / float64(tc.sizes[i])
				}
				if int(math.Round(picked)) != len(clusters) {
					t.Fatalf("draw %v picks %v clusters, want %d", w, picked, len(clusters))
				}
			}
			again := clusterWeights(tc.rows)
			for b := range draws {
				for i := range draws[b] {
					if draws[b][i] != again[b][i] {
						t.Fatal("the draws are not reproducible")
					}
				}
			}
		})
	}
}

func TestEvalOutOfFoldRoutesEveryTrainRowOnce(t *testing.T) {
	set := familySet(8, nil)
	rows := outOfFold(set, ReplayOptions{}, KNNName, []float64{0, 1})
	if len(rows) != len(set.Train) {
		t.Fatalf("%d rows routed out of fold, want %d", len(rows), len(set.Train))
	}
	seen := map[string]int{}
	for _, r := range rows {
		seen[r.cluster]++
		if r.strongScore != 1 || r.strongCostUS <= 0 {
			t.Fatalf("row %+v: the strongest (big) scores 1 at a cost", r)
		}
	}
	for fam, n := range seen {
		if n != 60 {
			t.Fatalf("family %s has %d rows out of fold, want 60", fam, n)
		}
	}
}
