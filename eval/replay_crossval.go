package eval

import (
	"hash/fnv"
	"math/rand/v2"
	"runtime"
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
// named router trained on the other folds. The folds train side by side,
// opts.Parallel at once, else as many as Go has processors to run them:
// each holds its own router and features of most of train (about 1.6 GiB
// on a pool of 36,000 questions), and more at once would not finish
// sooner.
func outOfFold(set *ReplaySet, opts ReplayOptions, name string, grid []float64) []foldRow {
	folds := set.operatingFolds()
	parts := make([][]foldRow, len(folds))
	atOnce := opts.Parallel
	if atOnce <= 0 {
		atOnce = runtime.GOMAXPROCS(0)
	}
	slots := make(chan struct{}, atOnce)
	var wg sync.WaitGroup
	for f, fold := range folds {
		if len(fold.Train) == 0 || len(fold.Test) == 0 {
			opts.steps.step(name)
			continue
		}
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			parts[f] = routeFold(fold, opts, name, grid)
			opts.steps.step(name)
		})
	}
	wg.Wait()
	return slices.Concat(parts...)
}

// operatingFolds cuts set's train rows into OperatingFolds folds by
// question hash (cvFold): fold f scores the rows of hash f and trains on the
// others. The folds are made at the first call and kept, so the routers
// share each fold's answer estimates; a fold is used by one goroutine at a
// time. Not safe for concurrent first calls.
func (set *ReplaySet) operatingFolds() []*ReplaySet {
	if set.folds != nil {
		return set.folds
	}
	choice := set.estimateChoice()
	for f := range OperatingFolds {
		fold := &ReplaySet{Dir: set.Dir, Models: set.Models, Split: SplitValidation, estimates: &choice}
		for _, r := range set.Train {
			if cvFold(r.Question, OperatingFolds) == f {
				fold.Test = append(fold.Test, r)
			} else {
				fold.Train = append(fold.Train, r)
			}
		}
		set.folds = append(set.folds, fold)
	}
	return set.folds
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

// clusterDraws are OperatingResamples bootstrap draws over the rows'
// clusters: each draw picks as many clusters as there are, with
// replacement, and weighs a row by how often its cluster was drawn. The
// draws are seeded, so the choice is reproducible.
type clusterDraws struct {
	of       []int       // row → its cluster
	clusters int         // how many there are
	count    [][]float64 // draw → cluster → times drawn
}

// drawClusters makes the clusterDraws of rows.
func drawClusters(rows []foldRow) clusterDraws {
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = r.cluster
	}
	slices.Sort(names)
	names = slices.Compact(names)
	index := make(map[string]int, len(names))
	for c, name := range names {
		index[name] = c
	}
	d := clusterDraws{of: make([]int, len(rows)), clusters: len(names), count: make([][]float64, OperatingResamples)}
	for i, r := range rows {
		d.of[i] = index[r.cluster]
	}
	rng := rand.New(rand.NewPCG(0x6f70, 0x7074))
	for b := range d.count {
		k := make([]float64, len(names))
		for range names {
			k[rng.IntN(len(names))]++
		}
		d.count[b] = k
	}
	return d
}

// shares sets out[b] to the router's cost at grid weight j as a share of
// the strongest model's, with the rows weighed by draw b. A cluster's
// rows are summed once, so a draw costs one step per cluster.
func (d clusterDraws) shares(rows []foldRow, j int, out []float64) {
	cost, strong := make([]float64, d.clusters), make([]float64, d.clusters)
	for i, r := range rows {
		cost[d.of[i]] += r.costs[j]
		strong[d.of[i]] += r.strongCostUS
	}
	for b, k := range d.count {
		var c, s float64
		for ci, times := range k {
			c += times * cost[ci]
			s += times * strong[ci]
		}
		out[b] = ratioOr0(c, s)
	}
}

// foldFigures are, at grid weight j, the router's mean score, the
// strongest model's, and the router's cost as a share of the strongest's.
func foldFigures(rows []foldRow, j int) (acc, strongAcc, share float64) {
	var cost, strongCost float64
	for _, r := range rows {
		acc += r.scores[j]
		strongAcc += r.strongScore
		cost += r.costs[j]
		strongCost += r.strongCostUS
	}
	if len(rows) == 0 {
		return 0, 0, 0
	}
	n := float64(len(rows))
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
