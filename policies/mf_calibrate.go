package policies

import (
	"hash/fnv"
	"math"
	"sync"
)

// MFOptions are the matrix-factorisation predictor's hyperparameters; zero
// fields take the defaults. The embedding size and both penalties were
// chosen by five-fold cross-validation on the routing set's train split
// (never on its test split, docs/replay-format.md); the step size, the
// epochs and the length feature moved little there and were left.
type MFOptions struct {
	Dim          int     // shared embedding size; default 8, negative: none
	L2           float64 // penalty of the linear terms; default 1e-3
	FactorL2     float64 // penalty of the projection and embeddings; default 3e-2
	Epochs       int     // passes over the examples; default 10
	LearningRate float64 // initial step size; default 0.2
	InitScale    float64 // spread of the initial factors; default 0.1
	MinDF        int     // drop terms in fewer examples; default 2
	CharWeight   float64 // weight of the character n-gram block; default 1, negative: none
	LengthWeight float64 // value of the length bucket feature; default 0.3, negative: none
	// CalibrationFolds is the number of folds whose out-of-fold logits fit
	// the Platt scaling; default 3.
	CalibrationFolds int
	NoCalibration    bool
	Seed             uint64
	// Lexicon, when set, holds the tokenisation of the training texts
	// (and of questions to predict), done once; it changes no result.
	Lexicon *Lexicon
}

// or is o, or def (with o's Lexicon) when o sets nothing else.
func (o MFOptions) or(def MFOptions) MFOptions {
	lex := o.Lexicon
	o.Lexicon = nil
	if o == (MFOptions{}) {
		o = def
	}
	o.Lexicon = lex
	return o
}

func (o MFOptions) withDefaults() MFOptions {
	o.Dim = orDefault(o.Dim, 8)
	o.Epochs = orDefault(o.Epochs, 10)
	o.MinDF = orDefault(o.MinDF, 2)
	o.CalibrationFolds = max(2, orDefault(o.CalibrationFolds, 3))
	o.L2 = orDefault(o.L2, 1e-3)
	o.FactorL2 = orDefault(o.FactorL2, 3e-2)
	o.LearningRate = orDefault(o.LearningRate, 0.2)
	o.InitScale = orDefault(o.InitScale, 0.1)
	o.CharWeight = orDefault(o.CharWeight, 1)
	o.LengthWeight = orDefault(o.LengthWeight, 0.3)
	return o
}

// orDefault is def for 0 and 0 for a negative v ("none").
func orDefault[T int | float64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// platt maps a logit z to sigmoid(a·z + c).
type platt struct{ a, c float64 }

func (p platt) prob(z float64) float64 { return sigmoid(p.a*z + p.c) }

// calibrateMF fits one Platt scaling per model on out-of-fold logits:
// examples are split into folds by a hash of the question (so repeated
// questions stay in one fold), a model is trained without each fold and
// predicts it.
func calibrateMF(feat *featurizer, data mfData, opts MFOptions) []platt {
	k := len(data.models)
	zs := make([][]float64, k)
	ys := make([][]float64, k)
	for f, m := range foldFits(feat, data, opts) {
		for i, x := range data.xs {
			if data.folds[i] != f {
				continue
			}
			z := m.logits(x)
			for j := range k {
				if data.off != nil {
					z[j] += data.off[i][j]
				}
				if y := data.ys[i][j]; !math.IsNaN(y) {
					zs[j], ys[j] = append(zs[j], z[j]), append(ys[j], y)
				}
			}
		}
	}
	cal := make([]platt, k)
	for j := range cal {
		cal[j] = fitPlatt(zs[j], ys[j])
	}
	return cal
}

// foldFits are the models trained without each calibration fold, in fold
// order. They train side by side: each is deterministic and reads the
// examples' features without changing them, so this costs one model's
// weights per fold and no copy of the features.
func foldFits(feat *featurizer, data mfData, opts MFOptions) []*MF {
	fits := make([]*MF, opts.CalibrationFolds)
	var wg sync.WaitGroup
	for f := range fits {
		wg.Go(func() { fits[f] = fitMF(feat, data, f, opts) })
	}
	wg.Wait()
	return fits
}

func foldOf(question string, folds int) int {
	h := fnv.New32a()
	h.Write([]byte(question))
	return int(h.Sum32() % uint32(folds))
}

// fitPlatt minimises the log loss of sigmoid(a·z + c) against soft labels y
// by Newton's method, with a small pull towards the identity (a = 1, c = 0)
// so few or separable points stay finite. The slope is kept non-negative,
// so calibration never reverses the model's order.
func fitPlatt(z, y []float64) platt {
	const ridge = 1e-3
	p := platt{a: 1}
	if len(z) == 0 {
		return p
	}
	for range 50 {
		ga, gc := ridge*(p.a-1), ridge*p.c
		haa, hac, hcc := ridge, 0.0, ridge
		for i := range z {
			q := p.prob(z[i])
			r, w := q-y[i], q*(1-q)
			ga += r * z[i]
			gc += r
			haa += w * z[i] * z[i]
			hac += w * z[i]
			hcc += w
		}
		det := haa*hcc - hac*hac
		if det <= 0 {
			break
		}
		da, dc := (hcc*ga-hac*gc)/det, (haa*gc-hac*ga)/det
		p.a, p.c = max(0, p.a-da), p.c-dc
		if math.Abs(da)+math.Abs(dc) < 1e-9 {
			break
		}
	}
	return p
}
