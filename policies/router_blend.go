package policies

import "slices"

// Blend predicts the mean of its routers' predictions: an ensemble of
// success predictors (the default learned router blends LogReg and KNN).
type Blend struct {
	Routers []Router
}

var _ Router = (*Blend)(nil)

// Predict averages, per candidate, the predictions of the routers that
// have one.
func (b *Blend) Predict(question string, allowed []string) map[string]float64 {
	sum := map[string]float64{}
	n := map[string]float64{}
	for _, r := range b.Routers {
		for c, p := range r.Predict(question, allowed) {
			sum[c] += p
			n[c]++
		}
	}
	for c := range sum {
		sum[c] /= n[c]
	}
	return sum
}

// Candidates is the sorted union of the routers' candidates.
func (b *Blend) Candidates() []string {
	var out []string
	for _, r := range b.Routers {
		out = append(out, r.Candidates()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Len is the largest training set among the routers.
func (b *Blend) Len() int {
	n := 0
	for _, r := range b.Routers {
		n = max(n, r.Len())
	}
	return n
}
