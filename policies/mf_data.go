package policies

import (
	"math"
	"slices"
)

// mfData is a training set in features: per example its vector, its
// labels per model (NaN: no score), its calibration fold and, when off is
// set, a fixed logit per model the model's own logits add to (the model
// then learns a correction to another predictor, its bias starting at 0).
type mfData struct {
	models []string
	xs     []sparse
	ys     [][]float64
	folds  []int
	off    [][]float64
}

// newMFData lays out examples in feat's features, with calibration folds
// by question hash.
func newMFData(feat *featurizer, examples []KNNExample, folds int) mfData {
	d := mfData{models: scoredModels(examples), xs: make([]sparse, len(examples)), folds: make([]int, len(examples))}
	for i, ex := range examples {
		d.xs[i] = feat.vector(ex.Question)
		d.folds[i] = foldOf(ex.Question, folds)
	}
	d.ys = scoreLabels(examples, d.models)
	return d
}

// questionsOf is the examples' questions, in order.
func questionsOf(examples []KNNExample) []string {
	out := make([]string, len(examples))
	for i, ex := range examples {
		out[i] = ex.Question
	}
	return out
}

// scoredModels is the sorted set of candidates examples score.
func scoredModels(examples []KNNExample) []string {
	seen := map[string]bool{}
	for _, ex := range examples {
		for c := range ex.Scores {
			seen[c] = true
		}
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// scoreLabels lays out the scores (clamped to [0,1]) per example and model;
// NaN marks no score.
func scoreLabels(examples []KNNExample, models []string) [][]float64 {
	ys := make([][]float64, len(examples))
	for i, ex := range examples {
		ys[i] = make([]float64, len(models))
		for j, c := range models {
			s, ok := ex.Scores[c]
			if !ok || math.IsNaN(s) {
				ys[i][j] = math.NaN()
				continue
			}
			ys[i][j] = min(1, max(0, s))
		}
	}
	return ys
}

// logitPriors is each model's smoothed mean label as a logit.
func logitPriors(ys [][]float64) []float64 {
	if len(ys) == 0 {
		return nil
	}
	b := make([]float64, len(ys[0]))
	for j := range b {
		sum, n := 0.0, 0.0
		for _, y := range ys {
			if !math.IsNaN(y[j]) {
				sum, n = sum+y[j], n+1
			}
		}
		p := (sum + 0.5) / (n + 1)
		b[j] = math.Log(p / (1 - p))
	}
	return b
}
