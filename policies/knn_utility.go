package policies

// KNNCandidate is a model the router may pick, with its expected cost and
// latency for the task at hand (any units: they are normalised by the
// largest value among the candidates offered).
type KNNCandidate struct {
	Name    string
	Cost    float64
	Latency float64
}

// UtilityWeights are the preference weights that trade predicted success
// for cost and latency.
type UtilityWeights struct {
	Cost    float64
	Latency float64
	// CostScale, when positive, is what a candidate's cost is divided by
	// instead of the largest cost among the candidates offered: one scale
	// for every question (say, the mean largest cost over past questions)
	// trades success for absolute cost, so a long, dear question goes to a
	// cheaper model sooner than a short one. Per-question normalisation
	// charges both alike.
	CostScale float64
}

// KNNChoice is a picked candidate with how it scored.
type KNNChoice struct {
	Name      string
	Predicted float64 // predicted success
	Utility   float64 // Predicted − weights · normalised cost and latency
}

// Choose picks the candidate with the highest utility: predicted success
// minus Cost·cost/maxCost (or cost/CostScale) minus
// Latency·latency/maxLatency. Only the given
// candidates are considered (the caller passes the allow-list: privacy and
// "off" models are never in it). Ties go to the cheaper candidate, then to
// the earlier one. ok is false when no candidate has a prediction.
func (m *KNN) Choose(question string, cands []KNNCandidate, w UtilityWeights) (KNNChoice, bool) {
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	return ChooseByUtility(m.Predict(question, names), cands, w)
}

// ChooseByUtility is Choose over predictions made earlier (pred maps a
// candidate to its predicted success; candidates missing from it are
// skipped).
func ChooseByUtility(pred map[string]float64, cands []KNNCandidate, w UtilityWeights) (KNNChoice, bool) {
	maxCost, maxLatency := 0.0, 0.0
	for _, c := range cands {
		maxCost = max(maxCost, c.Cost)
		maxLatency = max(maxLatency, c.Latency)
	}
	if w.CostScale > 0 {
		maxCost = w.CostScale
	}
	var best KNNChoice
	bestCost := 0.0
	found := false
	for _, c := range cands {
		p, ok := pred[c.Name]
		if !ok {
			continue
		}
		u := p - w.Cost*ratio(c.Cost, maxCost) - w.Latency*ratio(c.Latency, maxLatency)
		if !found || u > best.Utility || (u == best.Utility && c.Cost < bestCost) {
			best, bestCost, found = KNNChoice{Name: c.Name, Predicted: p, Utility: u}, c.Cost, true
		}
	}
	return best, found
}

func ratio(v, maxV float64) float64 {
	if maxV <= 0 {
		return 0
	}
	return v / maxV
}
