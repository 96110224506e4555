package eval

import (
	"fmt"
	"math"

	"github.com/toolhub/toolhub/policies"
)

// OperatingRule is how a router's cost weight is chosen, on validation rows
// only (the train split's held-out part, see ValidationSet).
const OperatingRule = "the largest cost weight of the fixed grid whose validation accuracy reaches the strongest " +
	"model's validation accuracy by at least one standard error of the rows' paired score differences " +
	"(else the most accurate weight), the router trained on the rest of the train split"

// OperatingMarginSE is the margin OperatingRule asks for, in standard
// errors of the mean paired difference between the router's score and the
// strongest model's on the validation rows. Without it the rule takes the
// last weight at which the two merely tie, which is as likely to fall short
// as not on rows whose task mix differs: re-weighing held-out train rows
// to random task mixes, the weight chosen with no margin matched the
// strongest model at no more than half its cost in 47% of the mixes, with
// one standard error in 67–82% (docs/replay-format.md).
const OperatingMarginSE = 1.0

// OperatingPoint is a router's chosen cost weight and what it gives.
type OperatingPoint struct {
	Policy string  `json:"policy"`
	Weight float64 `json:"cost_weight"`
	// On validation: the target (the strongest model's accuracy), whether
	// the weight reaches it, and the weight's accuracy and cost.
	ValidationTarget   float64 `json:"validation_target_accuracy"`
	Reached            bool    `json:"validation_reached"`
	ValidationAccuracy float64 `json:"validation_accuracy"`
	ValidationCost     float64 `json:"validation_cost_usd_per_1k"`
	// On the scored rows, with the router trained on the whole train split.
	Accuracy float64 `json:"accuracy"`
	Cost     float64 `json:"cost_usd_per_1k"`
}

// routerPoints scores the router behind cache at every weight on the set's
// scored rows.
func routerPoints(set *ReplaySet, cache *predictionCache, name string, weights []float64, latency float64) []Point {
	pts := make([]Point, len(weights))
	for i, w := range weights {
		p := knnPolicy{router: name, set: set, models: set.Models, cache: cache,
			weights: policies.UtilityWeights{Cost: w, Latency: latency}}
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
	val, err := set.ValidationSet()
	if err != nil {
		return nil, err
	}
	strong := bestMean(val.Models, val.Train)
	target := measure(val, fixedChoice(strong)).Accuracy
	cache := newPredictionCache(trainRouter(val, opts, name), val.Models)
	pts := routerPoints(val, cache, name, AIQGrid, opts.Latency)
	op := &OperatingPoint{ValidationTarget: target}
	bestAcc := -1.0
	for i, pt := range pts {
		p := knnPolicy{router: name, set: val, models: val.Models, cache: cache,
			weights: policies.UtilityWeights{Cost: AIQGrid[i], Latency: opts.Latency}}
		gain, se := pairedGain(val, p.Choose, strong)
		switch {
		case gain >= OperatingMarginSE*se:
			op.Weight, op.Reached, op.ValidationAccuracy, op.ValidationCost = AIQGrid[i], true, pt.Accuracy, per1k(pt.CostUSD)
		case !op.Reached && pt.Accuracy > bestAcc:
			bestAcc = pt.Accuracy
			op.Weight, op.ValidationAccuracy, op.ValidationCost = AIQGrid[i], pt.Accuracy, per1k(pt.CostUSD)
		}
	}
	op.Policy = routerPolicyName(name, op.Weight)
	return op, nil
}

// summariseRouters adds, per router in pols, the sweep summary, the
// fixed-grid figures and (unless the rows scored are validation rows) the
// operating point chosen on validation.
func summariseRouters(set *ReplaySet, opts ReplayOptions, pols []ReplayPolicy, results []PolicyResult) ([]*SweepSummary, error) {
	strongP := measure(set, fixedChoice(bestMean(set.Models, set.Train)))
	strong := PolicyResult{Name: StrongestName, Accuracy: strongP.Accuracy, CostUSD: strongP.CostUSD}
	weakP := measure(set, fixedChoice(pickByPrice(set.Models, false)))
	weak := PolicyResult{Name: CheapestName, Accuracy: weakP.Accuracy, CostUSD: weakP.CostUSD}
	var out []*SweepSummary
	done := map[string]bool{}
	for _, p := range pols {
		k, ok := p.(knnPolicy)
		if !ok || done[k.router] {
			continue
		}
		done[k.router] = true
		s := summariseSweep(results, k.router)
		if s == nil {
			continue
		}
		gridMeasures(s, routerPoints(set, k.cache, k.router, AIQGrid, opts.Latency), strong, weak)
		if set.splitName() != SplitValidation {
			op, err := chooseOperatingPoint(set, opts, k.router)
			if err != nil {
				return nil, fmt.Errorf("operating point of %s: %w", k.router, err)
			}
			pt := routerPoints(set, k.cache, k.router, []float64{op.Weight}, opts.Latency)[0]
			op.Accuracy, op.Cost = pt.Accuracy, per1k(pt.CostUSD)
			s.Operating = op
		}
		out = append(out, s)
	}
	return out, nil
}

// pairedGain is the mean over the scored rows of choose's score minus
// model's, and the standard error of that mean.
func pairedGain(set *ReplaySet, choose func(ReplayRow) string, model string) (mean, se float64) {
	n := float64(len(set.Test))
	if n == 0 {
		return 0, 0
	}
	d := make([]float64, len(set.Test))
	for i, row := range set.Test {
		d[i] = row.Scores[choose(row)] - row.Scores[model]
		mean += d[i]
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, v := range d {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / (n - 1) / n)
}
