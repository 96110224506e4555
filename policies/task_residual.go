package policies

import (
	"math"
	"slices"
)

// TaskResidual corrects the family prior per question: a candidate's logit
// is the prior's logit plus a linear correction in the question's features
// (MF's, no shared embedding), Platt-scaled per model:
//
//	p_m(x) = σ(a_m · (logit prior_m(x) + b_m + w_m·x) + c_m)
//
// The correction is fitted on the log loss against the prior's out-of-fold
// predictions, so it learns what the family means miss within a family
// (a subject inside a broad family, a longer and harder problem) rather
// than undoing a prior that has seen the row. With a strong enough penalty
// it is the prior itself.
type TaskResidual struct {
	prior    *TaskPrior
	fix      *MF
	examples int
}

var _ Router = (*TaskResidual)(nil)

// TaskResidualOptions tune TrainTaskResidual; zero fields take the defaults.
type TaskResidualOptions struct {
	Prior TaskPriorOptions
	// Correction are the correction's settings; zero fields take
	// DefaultTaskCorrection's.
	Correction MFOptions
	// Folds is how many folds by question hash give the prior's
	// out-of-fold predictions the correction is fitted against; default 3.
	Folds int
}

// DefaultTaskCorrection are the correction's settings: linear terms only,
// under a penalty chosen by cross-validation on the routing set's train
// split (docs/replay-format.md).
var DefaultTaskCorrection = MFOptions{Dim: -1, L2: 3e-3}

// priorClip keeps a prior probability off 0 and 1 before its logit.
const priorClip = 1e-3

// TrainTaskResidual learns the family prior on all examples and the
// correction against its out-of-fold predictions. ok is false when the
// examples record no families (see TrainTaskPrior). Training is
// deterministic.
func TrainTaskResidual(examples []KNNExample, opts TaskResidualOptions) (*TaskResidual, bool) {
	prior, ok := TrainTaskPrior(examples, opts.Prior)
	if !ok {
		return nil, false
	}
	copts := opts.Correction.or(DefaultTaskCorrection).withDefaults()
	folds := max(2, opts.Folds)
	if opts.Folds == 0 {
		folds = 3
	}
	feat := newFeaturizer(questionsOf(examples), copts)
	d := newMFData(feat, examples, copts.CalibrationFolds)
	d.off = make([][]float64, len(examples))
	fold := make([]int, len(examples))
	for i, ex := range examples {
		fold[i] = foldOf("prior\x00"+ex.Question, folds)
	}
	for f := range folds {
		var part []KNNExample
		for i, ex := range examples {
			if fold[i] != f {
				part = append(part, ex)
			}
		}
		p, ok := TrainTaskPrior(part, opts.Prior)
		for i, ex := range examples {
			if fold[i] != f {
				continue
			}
			if !ok {
				p = prior // a fold with one family left: fall back to all
			}
			d.off[i] = priorLogits(p, ex.Question, d.models)
		}
	}
	return &TaskResidual{prior: prior, fix: trainMFOn(feat, d, copts), examples: len(examples)}, true
}

// priorLogits is the prior's logit of every model in models for question
// (0 for a model it has no mean for).
func priorLogits(p *TaskPrior, question string, models []string) []float64 {
	pred := p.Predict(question, models)
	out := make([]float64, len(models))
	for j, c := range models {
		if q, ok := pred[c]; ok {
			q = min(1-priorClip, max(priorClip, q))
			out[j] = math.Log(q / (1 - q))
		}
	}
	return out
}

// Predict returns each allowed candidate's corrected probability of success.
func (r *TaskResidual) Predict(question string, allowed []string) map[string]float64 {
	models := r.fix.models
	off := priorLogits(r.prior, question, models)
	z := r.fix.logits(r.fix.feat.vector(question))
	out := make(map[string]float64, len(allowed))
	for _, c := range allowed {
		if j, ok := slices.BinarySearch(models, c); ok {
			out[c] = r.fix.cal[j].prob(off[j] + z[j])
		}
	}
	return out
}

// Candidates lists the candidates with a predictor, sorted.
func (r *TaskResidual) Candidates() []string { return slices.Clone(r.fix.models) }

// Len is the number of training examples.
func (r *TaskResidual) Len() int { return r.examples }
