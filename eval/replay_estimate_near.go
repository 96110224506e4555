package eval

import (
	"github.com/toolhub/toolhub/policies"
)

// nearEstimates estimate a model's cost and latency on a question from the
// train questions most like it (knn's TF-IDF cosine), where one estimate
// per model would miss how much they vary: a pool whose models write long
// answers to code and short ones to trivia records per-query costs that
// differ by task far more than the prompt's length says.
//
// Cost is learnt as a unit per answer: the recorded cost over the decision
// proxy (decisionProxyUSD), or the recorded cost itself for a model
// without prices (isFree). A question's unit is the similarity-weighted mean of its
// nearest train questions' units, shrunk toward the model's own train-wide
// unit by NearShrink of similarity; latency likewise.
type nearEstimates struct {
	index   *policies.KNN
	models  []ReplayModel
	rows    []ReplayRow // indexed, in index order
	choice  EstimateChoice
	overall *answerEstimates // the per-model units the means shrink toward
	byText  map[string]nearUnits
}

// nearUnits are one question's estimated units per model; a model absent
// has no record on train at all, and takes the per-model estimate (the
// proxy).
type nearUnits struct {
	cost    map[string]float64
	latency map[string]float64
}

// NearShrink is how much similarity the model's train-wide estimate weighs
// in a question's mean, as if it were one more, perfectly similar
// neighbour.
const NearShrink = 1.0

// newNearEstimates indexes the train rows that record an outcome; nil
// when none does.
func newNearEstimates(models []ReplayModel, train []ReplayRow, choice EstimateChoice, overall *answerEstimates) *nearEstimates {
	var rows []ReplayRow
	for _, r := range train {
		if recordsOutcome(r) {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	examples := make([]policies.KNNExample, len(rows))
	for i, r := range rows {
		examples[i] = policies.KNNExample{Question: r.RouteText()}
	}
	return &nearEstimates{index: policies.TrainKNN(examples, max(choice.CostK, choice.LatencyK)),
		models: models, rows: rows, choice: choice, overall: overall, byText: map[string]nearUnits{}}
}

// units are the question's estimated units per model, kept per question.
func (n *nearEstimates) units(question string) nearUnits {
	if u, ok := n.byText[question]; ok {
		return u
	}
	nbs := n.index.Nearest(question, max(n.choice.CostK, n.choice.LatencyK))
	u := nearUnitsOf(n.models, n.rows, nbs, n.choice, n.overall)
	n.byText[question] = u
	return u
}

// nearUnitsOf averages the units of the first k neighbours (k per
// estimate in choice; 0 leaves that estimate per model).
func nearUnitsOf(models []ReplayModel, rows []ReplayRow, nbs []policies.Neighbour, choice EstimateChoice, overall *answerEstimates) nearUnits {
	u := nearUnits{cost: map[string]float64{}, latency: map[string]float64{}}
	for _, m := range models {
		if choice.CostK > 0 {
			if g, ok := overall.costUnit(m); ok {
				u.cost[m.Name] = shrunkMean(nbs[:min(len(nbs), choice.CostK)], g, func(i int) (float64, bool) {
					return costUnitOf(m, rows[i])
				})
			}
		}
		if choice.LatencyK > 0 {
			if g, ok := overall.latency[m.Name]; ok {
				u.latency[m.Name] = shrunkMean(nbs[:min(len(nbs), choice.LatencyK)], g, func(i int) (float64, bool) {
					l, ok := rows[i].LatencyS[m.Name]
					return l, ok
				})
			}
		}
	}
	return u
}

// shrunkMean is the similarity-weighted mean of the neighbours' values,
// with prior weighing NearShrink.
func shrunkMean(nbs []policies.Neighbour, prior float64, value func(int) (float64, bool)) float64 {
	sum, weight := NearShrink*prior, NearShrink
	for _, nb := range nbs {
		if v, ok := value(nb.Index); ok {
			sum += nb.Similarity * v
			weight += nb.Similarity
		}
	}
	return sum / weight
}

// costUnitOf is row's recorded cost of m as a unit: over the decision
// proxy, or as it is for a model without prices. ok is false when none is
// recorded.
func costUnitOf(m ReplayModel, row ReplayRow) (float64, bool) {
	c, src := AnswerCostUSD(m, row)
	if src == CostProxy {
		return 0, false
	}
	if isFree(m) {
		return c, true
	}
	p := decisionProxyUSD(m, row)
	if p <= 0 {
		return 0, false
	}
	return c / p, true
}

// isFree is whether m has no prices, so its proxy is always 0 and its cost
// is estimated as it was recorded.
func isFree(m ReplayModel) bool { return m.PriceIn == 0 && m.PriceOut == 0 }
