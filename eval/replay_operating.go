package eval

import (
	"fmt"
	"math"
	"slices"
)

// OperatingRule is how a router's cost weight is chosen, on the train
// split only (out-of-fold, see OperatingFolds).
const OperatingRule = "the most accurate cost weight of the fixed grid whose cost, on the train split routed out of fold " +
	"(5 folds), stays within half the strongest model's in 90% of 200 redraws of the task families " +
	"(else the cheapest weight); reached when, within that budget, its out-of-fold accuracy is at least the strongest model's"

// OperatingBudget is the cost, as a share of the strongest model's, the
// operating point may spend: the goal is that model's accuracy at no more
// than half its cost.
const OperatingBudget = 0.5

// OperatingQuantile is the share of cluster redraws (drawClusters) in
// which the chosen weight's cost must stay within OperatingBudget. A
// deployment's task mix is not train's; weighing the families anew guards
// the budget against that. Re-weighing out-of-fold train rows to random
// task mixes, the rule met the goal in 72–77% of mixes with 0.9, 70–71%
// with 0.8 and 45–48% with the budget as a plain mean (docs/replay-format.md).
const OperatingQuantile = 0.9

// OperatingPoint is a router's chosen cost weight and what it gives.
type OperatingPoint struct {
	Policy string  `json:"policy"`
	Weight float64 `json:"cost_weight"`
	// Out of fold on the train split: the strongest model's accuracy,
	// whether the weight reaches it within OperatingBudget, the weight's
	// accuracy, its cost share of the strongest's, and that share's
	// OperatingQuantile over redraws.
	CVTarget    float64 `json:"cv_target_accuracy"`
	Reached     bool    `json:"cv_reached"`
	CVAccuracy  float64 `json:"cv_accuracy"`
	CVShare     float64 `json:"cv_cost_share"`
	CVShareHigh float64 `json:"cv_cost_share_quantile"`
	// On the scored rows, with the router trained on the whole train split.
	Accuracy float64 `json:"accuracy"`
	Cost     float64 `json:"cost_usd_per_1k"`
}

// routerPoints scores the router behind cache at every weight on the set's
// scored rows.
func routerPoints(set *ReplaySet, cache *predictionCache, name string, weights []float64, latency float64) []Point {
	pts := make([]Point, len(weights))
	scale := costScale(set)
	for i, w := range weights {
		p := knnPolicy{router: name, models: set.Models, cache: cache,
			weights: routerWeights(w, latency, scale)}
		pts[i] = measure(set, p.Choose)
	}
	return pts
}

// measure is the mean score and cost of answering the scored rows by choose.
func measure(set *ReplaySet, choose func(ReplayRow) string) Point {
	var pt Point
	for _, row := range set.Test {
		name := choose(row)
		m, _ := set.Model(name)
		cost, _ := AnswerCostUSD(m, row)
		pt.Accuracy += row.Scores[name]
		pt.CostUSD += cost
	}
	n := float64(len(set.Test))
	pt.Accuracy, pt.CostUSD = pt.Accuracy/n, pt.CostUSD/n
	return pt
}

// chooseOperatingPoint applies OperatingRule to the named router.
func chooseOperatingPoint(set *ReplaySet, opts ReplayOptions, name string) (*OperatingPoint, error) {
	rows := outOfFold(set, opts, name, AIQGrid)
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: %d train rows are too few to cross-validate", set.Dir, len(set.Train))
	}
	return pickOperating(rows, AIQGrid, name), nil
}

// crossValidates reports whether set's train split can choose operating
// points: some fold must hold both rows to train on and rows to route.
func (set *ReplaySet) crossValidates() bool {
	return slices.ContainsFunc(set.operatingFolds(), func(f *ReplaySet) bool { return len(f.Train) > 0 && len(f.Test) > 0 })
}

// operatingNote says how the operating points were chosen, or why none
// was.
func operatingNote(set *ReplaySet) string {
	if set.splitName() == SplitValidation {
		return "no operating point on the validation split: it is chosen on the whole train split out of fold " +
			"for a test run; here the sweeps are the result, to choose settings by"
	}
	if !set.crossValidates() {
		return fmt.Sprintf("no operating point: the train split (%s) is too small to choose one out of fold "+
			"(no fold of %d holds both rows to train on and rows to route); the sweeps are reported without it",
			counted(len(set.Train), "row"), OperatingFolds)
	}
	return "operating point: " + OperatingRule
}

// pickOperating is OperatingRule over out-of-fold rows routed at every
// weight of grid.
func pickOperating(rows []foldRow, grid []float64, name string) *OperatingPoint {
	draws := drawClusters(rows)
	shares := make([]float64, OperatingResamples)
	var best, cheapest *OperatingPoint
	for j, w := range grid {
		acc, target, share := foldFigures(rows, j)
		draws.shares(rows, j, shares)
		slices.Sort(shares)
		high := shares[int(math.Ceil(OperatingQuantile*float64(len(shares)-1)))]
		pt := &OperatingPoint{Weight: w, CVTarget: target, Reached: acc >= target && high <= OperatingBudget,
			CVAccuracy: acc, CVShare: share, CVShareHigh: high}
		// Ties go to the later, higher weight: the cheaper routing.
		if high <= OperatingBudget && (best == nil || acc >= best.CVAccuracy) {
			best = pt
		}
		if cheapest == nil || share <= cheapest.CVShare {
			cheapest = pt
		}
	}
	op := best
	if op == nil {
		op = cheapest
	}
	op.Policy = routerPolicyName(name, op.Weight)
	return op
}

// summariseRouters adds, per router in pols, the sweep summary, the
// fixed-grid figures and (unless the rows scored are validation rows, or
// train is too small to cross-validate) the operating point chosen on the
// train split (OperatingRule).
func summariseRouters(set *ReplaySet, opts ReplayOptions, pols []ReplayPolicy, results []PolicyResult) ([]*SweepSummary, error) {
	strongP := measure(set, fixedChoice(bestMean(set.Models, set.Train)))
	strong := PolicyResult{Name: StrongestName, Accuracy: strongP.Accuracy, CostUSD: strongP.CostUSD}
	weakP := measure(set, fixedChoice(cheapestOnTrain(set.Models, set.Train)))
	weak := PolicyResult{Name: CheapestName, Accuracy: weakP.Accuracy, CostUSD: weakP.CostUSD}
	// A router without a sweep (no single model was scored beside it) has
	// no operating point to choose, and no steps in that stage.
	var routers []knnPolicy
	var out []*SweepSummary
	for _, k := range routersOf(pols) {
		if s := summariseSweep(results, k.router); s != nil {
			routers, out = append(routers, k), append(out, s)
		}
	}
	operating := set.splitName() != SplitValidation && set.crossValidates()
	if len(routers) > 0 && operating {
		opts.steps.start(StageOperating, len(routers)*OperatingFolds)
	}
	for i, k := range routers {
		s := out[i]
		gridMeasures(s, routerPoints(set, k.cache, k.router, AIQGrid, opts.Latency), strong, weak)
		if operating {
			op, err := chooseOperatingPoint(set, opts, k.router)
			if err != nil {
				return nil, fmt.Errorf("operating point of %s: %w", k.router, err)
			}
			pt := routerPoints(set, k.cache, k.router, []float64{op.Weight}, opts.Latency)[0]
			op.Accuracy, op.Cost = pt.Accuracy, per1k(pt.CostUSD)
			s.Operating = op
		}
	}
	return out, nil
}

// routersOf is the first policy of each learned router among pols (its
// sweep shares one trained router), in their order.
func routersOf(pols []ReplayPolicy) []knnPolicy {
	var out []knnPolicy
	for _, p := range pols {
		if k, ok := p.(knnPolicy); ok && !slices.ContainsFunc(out, func(o knnPolicy) bool { return o.router == k.router }) {
			out = append(out, k)
		}
	}
	return out
}
