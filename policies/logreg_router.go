package policies

import "slices"

// Router is a learned success predictor over candidate models: KNN (the
// baseline) and LogReg.
type Router interface {
	// Predict returns each allowed candidate's predicted success on the
	// question; a candidate the router knows nothing about is left out.
	Predict(question string, allowed []string) map[string]float64
	// Candidates lists the candidates it was trained on, sorted.
	Candidates() []string
	// Len is the number of training examples.
	Len() int
}

var (
	_ Router = (*KNN)(nil)
	_ Router = (*LogReg)(nil)
)

// Predict returns each allowed candidate's predicted probability of success.
func (m *LogReg) Predict(question string, allowed []string) map[string]float64 {
	margins := make([]float64, len(m.models))
	m.margins(m.vec.vector(question), 1, margins)
	out := make(map[string]float64, len(allowed))
	for _, c := range allowed {
		if j, ok := slices.BinarySearch(m.models, c); ok {
			out[c] = sigmoid(margins[j])
		}
	}
	return out
}

// Candidates lists the candidates with a predictor, sorted.
func (m *LogReg) Candidates() []string { return slices.Clone(m.models) }

// Len is the number of training examples.
func (m *LogReg) Len() int { return m.examples }

// Choose picks the candidate of highest utility, as KNN.Choose does.
func (m *LogReg) Choose(question string, cands []KNNCandidate, w UtilityWeights) (KNNChoice, bool) {
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	return ChooseByUtility(m.Predict(question, names), cands, w)
}
