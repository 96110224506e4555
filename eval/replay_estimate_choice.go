package eval

import (
	"math"
)

// EstimateChoice says how the routers estimate an answer's cost and
// latency before asking for it: from the CostK (LatencyK) train questions
// most like the question (nearEstimates), or, when 0, one figure per model.
// The errors are what chose it: the mean |ln(estimate ÷ recorded)| of
// train's answers, each estimated from the other folds, for the choice and
// for one figure per model, over N answers.
type EstimateChoice struct {
	CostK, LatencyK               int
	CostError, CostErrorPerModel  float64
	CostN                         int
	LatencyError, LatencyPerModel float64
	LatencyN                      int
}

// NearKs are the neighbour counts chooseEstimates tries.
var NearKs = []int{5, 20, 50}

const (
	// estimateFolds cut train by question hash to measure the estimates.
	estimateFolds = 5
	// estimateProbes caps the held-out questions measured per fold, spread
	// evenly over it, so a large pool is measured in bounded time.
	estimateProbes = 300
	// nearGain is how much lower (as a share) the neighbours' error must be
	// than one figure per model's for them to be chosen, and nearFloor by
	// how much at least: noise alone, or rounding where one figure fits
	// every answer, must not switch a set to them.
	nearGain  = 0.05
	nearFloor = 0.01
)

// chooseEstimates measures on train alone, out of fold, whether a
// question's nearest train questions estimate its answers' recorded cost
// and latency better than one figure per model, and with how many
// neighbours. A set that records no outcome is estimated per model.
func chooseEstimates(models []ReplayModel, train []ReplayRow) EstimateChoice {
	if !recordsOutcomes(train) {
		return EstimateChoice{}
	}
	ks := append([]int{0}, NearKs...)
	cost := make([]meanAbs, len(ks))
	lat := make([]meanAbs, len(ks))
	for f := range estimateFolds {
		var fit, held []ReplayRow
		for _, r := range train {
			if cvFold(r.Question, estimateFolds) == f {
				held = append(held, r)
			} else {
				fit = append(fit, r)
			}
		}
		overall := newAnswerEstimates(models, fit, EstimateChoice{})
		near := newNearEstimates(models, fit, EstimateChoice{CostK: ks[len(ks)-1], LatencyK: ks[len(ks)-1]}, overall)
		if near == nil || len(held) == 0 {
			continue
		}
		for _, r := range spread(held, estimateProbes) {
			nbs := near.index.Nearest(r.RouteText(), ks[len(ks)-1])
			for i, k := range ks {
				var u nearUnits
				if k > 0 {
					u = nearUnitsOf(models, near.rows, nbs, EstimateChoice{CostK: k, LatencyK: k}, overall)
				}
				measureEstimates(models, r, overall, u, &cost[i], &lat[i])
			}
		}
	}
	c := EstimateChoice{CostErrorPerModel: cost[0].mean(), CostN: cost[0].n,
		LatencyPerModel: lat[0].mean(), LatencyN: lat[0].n}
	var ci, li int
	c.CostK, ci = bestK(ks, cost)
	c.LatencyK, li = bestK(ks, lat)
	c.CostError, c.LatencyError = cost[ci].mean(), lat[li].mean()
	return c
}

// measureEstimates adds the errors of row's estimates (units u; nil maps:
// per model) against what it recorded.
func measureEstimates(models []ReplayModel, row ReplayRow, e *answerEstimates, u nearUnits, cost, lat *meanAbs) {
	for _, m := range models {
		if c, src := AnswerCostUSD(m, row); src != CostProxy && c > 0 {
			cost.add(e.costUSD(m, row, u), c)
		}
		if l, ok := row.LatencyS[m.Name]; ok && l > 0 {
			if est, ok := e.latencySeconds(m, u); ok {
				lat.add(est, l)
			}
		}
	}
}

// bestK is the neighbour count of least error, and its index; 0 unless it
// beats one figure per model (errs[0]) by nearGain of its error and by
// nearFloor.
func bestK(ks []int, errs []meanAbs) (int, int) {
	best := 0
	for i := 1; i < len(ks); i++ {
		if errs[i].n > 0 && errs[i].mean() < errs[best].mean() {
			best = i
		}
	}
	gain := errs[0].mean() - errs[best].mean()
	if best == 0 || errs[0].n == 0 || gain < nearGain*errs[0].mean() || gain < nearFloor {
		return 0, 0
	}
	return ks[best], best
}

// recordsOutcomes is whether some train row records what an answer cost or
// how long it took.
func recordsOutcomes(train []ReplayRow) bool {
	for _, r := range train {
		if recordsOutcome(r) {
			return true
		}
	}
	return false
}

// recordsOutcome is whether row records what some answer cost (its output
// tokens included) or how long it took.
func recordsOutcome(r ReplayRow) bool {
	return len(r.CostUSD) > 0 || len(r.LatencyS) > 0 || len(r.TokensOut) > 0
}

// spread is at most n of rows, evenly spaced, so a file sorted by task is
// probed across its tasks.
func spread(rows []ReplayRow, n int) []ReplayRow {
	if len(rows) <= n {
		return rows
	}
	out := make([]ReplayRow, n)
	for i := range out {
		out[i] = rows[i*len(rows)/n]
	}
	return out
}

// meanAbs accumulates |ln(estimate ÷ recorded)|.
type meanAbs struct {
	sum float64
	n   int
}

func (a *meanAbs) add(est, recorded float64) {
	if est <= 0 || recorded <= 0 {
		return
	}
	a.sum += math.Abs(math.Log(est / recorded))
	a.n++
}

func (a meanAbs) mean() float64 {
	if a.n == 0 {
		return 0
	}
	return a.sum / float64(a.n)
}
