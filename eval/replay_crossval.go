package eval

import (
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sync"
)

// OperatingFolds is how many folds (by question hash) the train split is
// cut into to choose a router's operating point: every train row is routed
// by the router trained on the other folds, so the choice rests on all of
// train rather than one held-out part.
const OperatingFolds = 5

// cvFold is the fold of a question: FNV-1a of "cv", a zero byte and the
// question, mod folds. Repeated questions share a fold.
func cvFold(question string, folds int) int {
	h := fnv.New32a()
	h.Write([]byte("cv\x00" + question))
	return int(h.Sum32() % uint32(folds))
}

// foldRow is one train row as its fold's router routed it: per weight of
// the grid, the score and cost of the model chosen, beside the score and
// cost of the strongest model of the other folds.
type foldRow struct {
	cluster      string // the task family; the question when none is recorded
	scores       []float64
	costs        []float64
	strongScore  float64
	strongCostUS float64
}

// outOfFold routes every train row of set at every weight of grid with the
// named router trained on the other folds. The folds train side by side.
func outOfFold(set *ReplaySet, opts ReplayOptions, name string, grid []float64) []foldRow {
	parts := make([][]foldRow, OperatingFolds)
	choice := set.estimateChoice()
	var wg sync.WaitGroup
	for f := range OperatingFolds {
		fold := &ReplaySet{Dir: set.Dir, Models: set.Models, Split: SplitValidation, estimates: &choice}
		for _, r := range set.Train {
			if cvFold(r.Question, OperatingFolds) == f {
				fold.Test = append(fold.Test, r)
			} else {
				fold.Train = append(fold.Train, r)
			}
		}
		if len(fold.Train) == 0 || len(fold.Test) == 0 {
			opts.steps.step(name)
			continue
		}
		wg.Go(func() {
			parts[f] = routeFold(fold, opts, name, grid)
			opts.steps.step(name)
		})
	}
	wg.Wait()
	return slices.Concat(parts...)
}

// routeFold trains the router on fold's train rows and routes its scored
// rows at every weight.
func routeFold(fold *ReplaySet, opts ReplayOptions, name string, grid []float64) []foldRow {
	cache := newPredictionCache(trainRouter(fold, opts, name), fold)
	strong, _ := fold.Model(bestMean(fold.Models, fold.Train))
	scale := costScale(fold)
	out := make([]foldRow, len(fold.Test))
	for i, row := range fold.Test {
		fr := foldRow{cluster: row.Task, strongScore: row.Scores[strong.Name],
			scores: make([]float64, len(grid)), costs: make([]float64, len(grid))}
		if fr.cluster == "" {
			fr.cluster = "\x00" + row.Question
		}
		fr.strongCostUS, _ = AnswerCostUSD(strong, row)
		for j, w := range grid {
			p := knnPolicy{router: name, models: fold.Models, cache: cache,
				weights: routerWeights(w, opts.Latency, scale)}
			m, _ := fold.Model(p.Choose(row))
			fr.scores[j] = row.Scores[m.Name]
			fr.costs[j], _ = AnswerCostUSD(m, row)
		}
		out[i] = fr
	}
	return out
}

// OperatingResamples is how many times the out-of-fold rows are redrawn,
// cluster by cluster, to see how a weight's cost share moves when the mix
// of task families changes.
const OperatingResamples = 200

// clusterWeights are OperatingResamples bootstrap draws over the rows'
// clusters: each draw picks as many clusters as there are, with
// replacement, and weighs a row by how often its cluster was drawn. The
// draws are seeded, so the choice is reproducible.
func clusterWeights(rows []foldRow) [][]float64 {
	index := map[string][]int{}
	var clusters []string
	for i, r := range rows {
		if _, ok := index[r.cluster]; !ok {
			clusters = append(clusters, r.cluster)
		}
		index[r.cluster] = append(index[r.cluster], i)
	}
	slices.Sort(clusters)
	rng := rand.New(rand.NewPCG(0x6f70, 0x7074))
	out := make([][]float64, OperatingResamples)
	for b := range out {
		w := make([]float64, len(rows))
		for range clusters {
			for _, i := range index[clusters[rng.IntN(len(clusters))]] {
				w[i]++
			}
		}
		out[b] = w
	}
	return out
}

// foldFigures are, at grid weight j and with rows weighed by wt (nil:
// equally), the router's mean score, the strongest model's, and the
// router's cost as a share of the strongest's.
func foldFigures(rows []foldRow, wt []float64, j int) (acc, strongAcc, share float64) {
	var n, cost, strongCost float64
	for i, r := range rows {
		w := 1.0
		if wt != nil {
			w = wt[i]
		}
		n += w
		acc += w * r.scores[j]
		strongAcc += w * r.strongScore
		cost += w * r.costs[j]
		strongCost += w * r.strongCostUS
	}
	if n == 0 {
		return 0, 0, 0
	}
	return acc / n, strongAcc / n, ratioOr0(cost, strongCost)
}

// costScale is what the routers divide a candidate's cost by: the mean,
// over set's train rows, of the dearest candidate's cost. One scale for
// every question makes the cost weight a price on absolute cost (see
// policies.UtilityWeights.CostScale); 0 when train has no rows.
func costScale(set *ReplaySet) float64 {
	if len(set.Train) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range set.Train {
		dearest := 0.0
		for _, m := range set.Models {
			c, _ := AnswerCostUSD(m, r)
			dearest = max(dearest, c)
		}
		sum += dearest
	}
	return sum / float64(len(set.Train))
}
