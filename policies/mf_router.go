package policies

import (
	"math"
	"math/rand/v2"
	"slices"
)

// MF predicts each candidate's probability of success on a question as in
// RouteLLM's matrix-factorisation router, scoring every model on its own
// rather than against a rival: the question's feature vector x (see
// featurizer) is projected to a small dense embedding Pᵀx shared by all
// models, and a candidate's logit is its bias plus its embedding's dot
// product with that projection plus its own linear term in x:
//
//	logit_m(x) = b_m + v_m·(Pᵀx) + w_m·x
//
// The shared projection lets models with few distinguishing examples borrow
// what the others learnt about a question's difficulty; the linear term
// keeps what is particular to one model. The logits are then Platt-scaled
// per model on out-of-fold predictions, so the probabilities are calibrated
// enough to trade against cost in the utility every router uses.
type MF struct {
	feat     *featurizer
	models   []string  // sorted
	w        []float64 // feature-major: w[f*k+m]
	b        []float64 // per model
	p        []float64 // projection, feature-major: p[f*d+i]
	v        []float64 // model embeddings: v[m*d+i]
	cal      []platt   // per model
	examples int
	opts     MFOptions
}

var _ Router = (*MF)(nil)

// minCalibrationExamples is the fewest examples per calibration fold.
const minCalibrationExamples = 30

// Predict returns each allowed candidate's calibrated probability of success.
func (m *MF) Predict(question string, allowed []string) map[string]float64 {
	z := m.logits(m.feat.vector(question))
	out := make(map[string]float64, len(allowed))
	for _, c := range allowed {
		if j, ok := slices.BinarySearch(m.models, c); ok {
			out[c] = m.cal[j].prob(z[j])
		}
	}
	return out
}

// Candidates lists the candidates with a predictor, sorted.
func (m *MF) Candidates() []string { return slices.Clone(m.models) }

// Len is the number of training examples.
func (m *MF) Len() int { return m.examples }

// TrainMF fits the router on examples: the model on all of them, then the
// calibration folds (unless opts.NoCalibration or there are fewer than
// minCalibrationExamples per fold, too few to fit a scaling on). The
// vocabulary and IDF are learnt once from every question's text (no score
// enters them) and shared by the fold models. Training is deterministic
// for given examples and options.
func TrainMF(examples []KNNExample, opts MFOptions) *MF {
	opts = opts.withDefaults()
	feat := newFeaturizer(questionsOf(examples), opts)
	return trainMFOn(feat, newMFData(feat, examples, opts.CalibrationFolds), opts)
}

// trainMFOn fits the model on all of data, then its calibration (see
// TrainMF). opts have their defaults.
func trainMFOn(feat *featurizer, d mfData, opts MFOptions) *MF {
	m := fitMF(feat, d, -1, opts)
	m.cal = make([]platt, len(m.models))
	for j := range m.cal {
		m.cal[j] = platt{a: 1}
	}
	if !opts.NoCalibration && len(d.xs) >= minCalibrationExamples*opts.CalibrationFolds {
		m.cal = calibrateMF(feat, d, opts)
	}
	return m
}

// fitMF trains the uncalibrated model on the examples outside fold skip
// (skip < 0: on all of them).
func fitMF(feat *featurizer, data mfData, skip int, opts MFOptions) *MF {
	var xs []sparse
	var ys, offs [][]float64
	for i := range data.xs {
		if data.folds[i] != skip {
			xs, ys = append(xs, data.xs[i]), append(ys, data.ys[i])
			if data.off != nil {
				offs = append(offs, data.off[i])
			}
		}
	}
	m := &MF{feat: feat, models: data.models, examples: len(xs), opts: opts}
	k, d, f := len(m.models), opts.Dim, feat.dim()
	m.w = make([]float64, f*k)
	m.b = logitPriors(ys)
	if offs != nil {
		m.b = make([]float64, k)
	}
	m.p = make([]float64, f*d)
	m.v = make([]float64, k*d)
	rng := rand.New(rand.NewPCG(opts.Seed, 0x3f))
	for i := range m.p {
		m.p[i] = rng.NormFloat64() * opts.InitScale
	}
	for i := range m.v {
		m.v[i] = rng.NormFloat64() * opts.InitScale
	}
	m.fit(xs, ys, offs, rng)
	return m
}

// fit runs SGD on the log loss with L2 penalties, in a seeded order; offs
// (nil: none) are added to the logits per example.
func (m *MF) fit(xs []sparse, ys, offs [][]float64, rng *rand.Rand) {
	k, d := len(m.models), m.opts.Dim
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	h := make([]float64, d)
	back := make([]float64, d)
	g := make([]float64, k)
	t := 0.0
	for range m.opts.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			eta := m.opts.LearningRate / (1 + m.opts.LearningRate*m.opts.L2*t)
			t++
			x := xs[i]
			m.project(x, h)
			z := m.logitsWith(x, h)
			for j := range k {
				if offs != nil {
					z[j] += offs[i][j]
				}
				g[j] = 0
				if y := ys[i][j]; !math.IsNaN(y) {
					g[j] = sigmoid(z[j]) - y
				}
			}
			m.step(x, h, g, back, eta)
		}
	}
}

// step applies one example's gradient g (per model, of the log loss in the
// logit) with step size eta.
func (m *MF) step(x sparse, h, g, back []float64, eta float64) {
	k, d := len(m.models), m.opts.Dim
	l2, fl2 := m.opts.L2, m.opts.FactorL2
	for i := range back {
		back[i] = 0
	}
	for j := range k {
		if g[j] == 0 {
			continue
		}
		m.b[j] -= eta * g[j]
		vj := m.v[j*d : j*d+d]
		for i := range d {
			back[i] += g[j] * vj[i]
			vj[i] -= eta * (g[j]*h[i] + fl2*vj[i])
		}
	}
	// The re-slicings let the compiler drop the bounds checks of the
	// innermost loops, most of a replay's time.
	g, back = g[:k], back[:d]
	val := x.val[:len(x.idx)]
	for n, f := range x.idx {
		xf := val[n]
		row := m.w[int(f)*k : int(f)*k+k]
		row = row[:len(g)]
		for j, gj := range g {
			row[j] -= eta * (gj*xf + l2*row[j])
		}
		if d == 0 {
			continue
		}
		pr := m.p[int(f)*d : int(f)*d+d]
		for i, bi := range back {
			pr[i] -= eta * (bi*xf + fl2*pr[i])
		}
	}
}

// project sets h to Pᵀx.
func (m *MF) project(x sparse, h []float64) {
	d := m.opts.Dim
	for i := range h {
		h[i] = 0
	}
	for n, f := range x.idx {
		pr := m.p[int(f)*d : int(f)*d+d]
		for i := range d {
			h[i] += pr[i] * x.val[n]
		}
	}
}

// logits are the uncalibrated logits of every model for x.
func (m *MF) logits(x sparse) []float64 {
	h := make([]float64, m.opts.Dim)
	m.project(x, h)
	return m.logitsWith(x, h)
}

func (m *MF) logitsWith(x sparse, h []float64) []float64 {
	k, d := len(m.models), m.opts.Dim
	z := slices.Clone(m.b)
	val := x.val[:len(x.idx)]
	for n, f := range x.idx {
		row := m.w[int(f)*k : int(f)*k+k]
		row = row[:len(z)]
		xv := val[n]
		for j, wj := range row {
			z[j] += wj * xv
		}
	}
	for j := range k {
		vj := m.v[j*d : j*d+d]
		for i := range d {
			z[j] += vj[i] * h[i]
		}
	}
	return z
}
