package eval

import (
	"github.com/toolhub/toolhub/policies"
)

// answerEstimates are what a router may know of an answer's cost and
// latency before it asks for it: the question itself (its length, or the
// input tokens a row records, which the prompt fixes) and what the train
// rows record of each model. A scored row's recorded cost, latency and
// output tokens are outcomes of answering it, so a router never reads
// them; the answer it chooses is then charged what it recorded
// (AnswerCostUSD), as a live call would be.
//
// A model's cost is estimated as the proxy with the question's input
// tokens, scaled by how the model's recorded costs on train compare with
// that proxy (ratio 1 when train records none: the proxy itself, so a set
// that records no costs is routed exactly as before). Its latency is its
// mean recorded latency on train, else the size model. Where train's own
// out-of-fold errors say the similar train questions' records predict
// better than one figure per model (chooseEstimates), the ratio and the
// latency are those of the question's nearest train questions instead
// (nearEstimates).
type answerEstimates struct {
	costRatio map[string]float64 // recorded cost ÷ proxy, summed over train
	flatCost  map[string]float64 // mean recorded cost of a model without prices
	latency   map[string]float64 // mean recorded latency on train
	near      *nearEstimates     // per question; nil: per model only
}

// newAnswerEstimates learns each model's estimates from train, per
// question as choice says.
func newAnswerEstimates(models []ReplayModel, train []ReplayRow, choice EstimateChoice) *answerEstimates {
	e := &answerEstimates{costRatio: map[string]float64{}, flatCost: map[string]float64{}, latency: map[string]float64{}}
	for _, m := range models {
		var cost, proxy, lat float64
		var costs, lats int
		for _, r := range train {
			if c, src := AnswerCostUSD(m, r); src != CostProxy {
				cost += c
				proxy += decisionProxyUSD(m, r)
				costs++
			}
			if l, ok := r.LatencyS[m.Name]; ok {
				lat += l
				lats++
			}
		}
		switch {
		case costs > 0 && isFree(m):
			e.flatCost[m.Name] = cost / float64(costs)
		case costs > 0 && proxy > 0:
			e.costRatio[m.Name] = cost / proxy
		}
		if lats > 0 {
			e.latency[m.Name] = lat / float64(lats)
		}
	}
	if choice.CostK > 0 || choice.LatencyK > 0 {
		e.near = newNearEstimates(models, train, choice, e)
	}
	return e
}

// costUnit is m's train-wide cost unit (nearEstimates); ok is false when
// train records no cost of m.
func (e *answerEstimates) costUnit(m ReplayModel) (float64, bool) {
	if c, ok := e.flatCost[m.Name]; ok {
		return c, true
	}
	r, ok := e.costRatio[m.Name]
	return r, ok
}

// decisionProxyUSD is the cost of answering row with m from what is known
// before the answer: AnswerCostUSD of the question and its recorded input
// tokens alone (chars/4 without them), so output takes the proxy's 256.
func decisionProxyUSD(m ReplayModel, row ReplayRow) float64 {
	usd, _ := AnswerCostUSD(m, ReplayRow{Question: row.Question, TokensIn: row.TokensIn})
	return usd
}

// costUSD is m's estimated cost of answering row, given the question's
// units from its nearest train questions (nil maps: per model).
func (e *answerEstimates) costUSD(m ReplayModel, row ReplayRow, near nearUnits) float64 {
	unit, ok := near.cost[m.Name]
	if !ok {
		unit, ok = e.costUnit(m)
	}
	switch {
	case !ok:
		return decisionProxyUSD(m, row)
	case isFree(m):
		return unit
	}
	return decisionProxyUSD(m, row) * unit
}

// latencySeconds is m's estimated latency; ok is false when neither train
// records it nor its size is known.
func (e *answerEstimates) latencySeconds(m ReplayModel, near nearUnits) (float64, bool) {
	if l, ok := near.latency[m.Name]; ok {
		return l, true
	}
	if l, ok := e.latency[m.Name]; ok {
		return l, true
	}
	if m.SizeB <= 0 {
		return 0, false
	}
	return ModelledLatencySeconds(m), true
}

// candidates offers every model to a router with its estimated cost and
// latency on row. A model of unknown latency is charged the slowest known
// one, so not knowing never looks fast.
func (e *answerEstimates) candidates(models []ReplayModel, row ReplayRow) []policies.KNNCandidate {
	cands := make([]policies.KNNCandidate, len(models))
	slowest := 0.0
	known := make([]bool, len(models))
	var near nearUnits
	if e.near != nil {
		near = e.near.units(row.RouteText())
	}
	for i, m := range models {
		lat, ok := e.latencySeconds(m, near)
		cands[i] = policies.KNNCandidate{Name: m.Name, Cost: e.costUSD(m, row, near), Latency: lat}
		known[i] = ok
		if ok {
			slowest = max(slowest, lat)
		}
	}
	for i := range cands {
		if !known[i] {
			cands[i].Latency = slowest
		}
	}
	return cands
}
