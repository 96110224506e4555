package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
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

func TestEvalClusterDrawsPickWholeFamilies(t *testing.T) {
	cases := []struct {
		name string
		rows []foldRow
	}{
		{"families of one and three rows",
			[]foldRow{{cluster: "a"}, {cluster: "b"}, {cluster: "b"}, {cluster: "b"}}},
		{"rows without a family are their own cluster",
			[]foldRow{{cluster: "\x00q1"}, {cluster: "\x00q2"}, {cluster: "\x00q3"}}},
		{"no rows", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := drawClusters(tc.rows)
			if len(d.count) != OperatingResamples {
				t.Fatalf("%d draws, want %d", len(d.count), OperatingResamples)
			}
			clusters := map[string]int{}
			for i, r := range tc.rows {
				if c, ok := clusters[r.cluster]; ok && c != d.of[i] {
					t.Fatalf("rows of %q are in clusters %d and %d", r.cluster, c, d.of[i])
				}
				clusters[r.cluster] = d.of[i]
			}
			if d.clusters != len(clusters) {
				t.Fatalf("%d clusters, want %d", d.clusters, len(clusters))
			}
			for _, k := range d.count {
				// A draw picks as many clusters as there are.
				picked := 0.0
				for _, times := range k {
					picked += times
				}
				if int(picked) != len(clusters) {
					t.Fatalf("draw %v picks %v clusters, want %d", k, picked, len(clusters))
				}
			}
			again := drawClusters(tc.rows)
			if !reflect.DeepEqual(d, again) {
				t.Fatal("the draws are not reproducible")
			}
		})
	}
}

func TestEvalClusterDrawSharesWeighEveryRowByItsFamily(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name     string
		rows     int
		families int
	}{
		{"every row its own family", 40, 40},
		{"few large families", 300, 4},
		{"many small families", 500, 120},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rows := make([]foldRow, tc.rows)
			for i := range rows {
				rows[i] = foldRow{cluster: fmt.Sprint("f", rng.IntN(tc.families)),
					costs: []float64{rng.Float64(), rng.Float64()}, strongCostUS: 0.5 + rng.Float64()}
			}
			d := drawClusters(rows)
			got := make([]float64, OperatingResamples)
			for j := range 2 {
				d.shares(rows, j, got)
				for b, k := range d.count {
					// The definition: every row weighed by how often
					// its family was drawn.
					var cost, strong float64
					for i, r := range rows {
						cost += k[d.of[i]] * r.costs[j]
						strong += k[d.of[i]] * r.strongCostUS
					}
					if want := ratioOr0(cost, strong); math.Abs(got[b]-want) > 1e-12 {
						t.Fatalf("weight %d, draw %d: share %v, want %v", j, b, got[b], want)
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

// BenchmarkPickOperating chooses an operating point over 10,000
// out-of-fold rows in 2,000 task families, routed at every weight of the
// fixed grid.
func BenchmarkPickOperating(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	rows := make([]foldRow, 10000)
	for i := range rows {
		r := foldRow{cluster: fmt.Sprint("f", rng.IntN(2000)), strongScore: rng.Float64(), strongCostUS: 1,
			scores: make([]float64, len(AIQGrid)), costs: make([]float64, len(AIQGrid))}
		for j := range AIQGrid {
			r.scores[j], r.costs[j] = rng.Float64(), rng.Float64()
		}
		rows[i] = r
	}
	for b.Loop() {
		pickOperating(rows, AIQGrid, KNNName)
	}
}

// TestEvalReplayFoldsAtOnceChangeNoFigure replays a set with the operating
// point's folds trained one at a time, two at a time and all at once: the
// reports must be byte-identical.
func TestEvalReplayFoldsAtOnceChangeNoFigure(t *testing.T) {
	set := syntheticSet(t)
	var want []byte
	for _, parallel := range []int{1, 2, OperatingFolds} {
		rep, err := Replay(set, ReplayOptions{Policies: []string{KNNName, LogRegName}, CostWeights: []float64{0, 0.2},
			Parallel: parallel})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(rep)
		if want == nil {
			want = got
		} else if string(got) != string(want) {
			t.Fatalf("%d folds at once: report differs:\n%s\n%s", parallel, got, want)
		}
	}
}
