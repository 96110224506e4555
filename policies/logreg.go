package policies

import (
	"math"
	"math/rand/v2"
	"slices"
)

// LogReg predicts each candidate's success on a task with one L2-regularised
// logistic regression per candidate over the task's TF-IDF vector (words
// and word pairs). Fractional scores are soft labels, so the prediction is a
// calibrated probability of success, comparable across candidates and
// usable in the same utility as KNN's.
type LogReg struct {
	vec      *vectorizer
	models   []string  // sorted
	w        []float64 // feature-major: w[f*len(models)+m]
	b        []float64
	examples int
	opts     LogRegOptions
}

// LogRegOptions are the learned router's hyperparameters; zero fields take
// the defaults, chosen on a validation fifth of the routing set's train
// split (never on its test split).
type LogRegOptions struct {
	L2        float64 // per-example L2 penalty; default DefaultLogRegL2
	Epochs    int     // passes over the examples; default 12
	NoBigrams bool    // words only
	MinDF     int     // drop terms in fewer examples; default 2
	Seed      uint64  // shuffling
	// Lexicon, when set, holds the tokenisation of the training texts
	// (and of questions to predict), done once; it changes no result.
	Lexicon *Lexicon
}

// DefaultLogRegL2 is the default per-example L2 penalty.
const DefaultLogRegL2 = 1e-3

func (o LogRegOptions) withDefaults() LogRegOptions {
	if o.L2 <= 0 {
		o.L2 = DefaultLogRegL2
	}
	if o.Epochs <= 0 {
		o.Epochs = 12
	}
	if o.MinDF <= 0 {
		o.MinDF = 2
	}
	return o
}

// TrainLogReg fits one predictor per candidate scored in examples by
// stochastic gradient descent (Bottou's step size schedule, lazily scaled
// weight decay). Training is deterministic for a given Seed.
func TrainLogReg(examples []KNNExample, opts LogRegOptions) *LogReg {
	opts = opts.withDefaults()
	texts := make([]string, len(examples))
	seen := map[string]bool{}
	for i, ex := range examples {
		texts[i] = ex.Question
		for c := range ex.Scores {
			seen[c] = true
		}
	}
	m := &LogReg{vec: newVectorizer(texts, !opts.NoBigrams, opts.MinDF, opts.Lexicon), examples: len(examples), opts: opts}
	for c := range seen {
		m.models = append(m.models, c)
	}
	slices.Sort(m.models)
	m.w = make([]float64, m.vec.dim()*len(m.models))
	m.b = m.priorBias(examples)
	xs := make([]sparse, len(examples))
	for i, t := range texts {
		xs[i] = m.vec.vector(t)
	}
	ys := m.labels(examples)
	m.fit(xs, ys)
	return m
}

// labels lays out the scores per example and model; NaN marks no score.
func (m *LogReg) labels(examples []KNNExample) [][]float64 { return scoreLabels(examples, m.models) }

// priorBias starts each candidate at the logit of its mean score.
func (m *LogReg) priorBias(examples []KNNExample) []float64 {
	b := make([]float64, len(m.models))
	for j, c := range m.models {
		sum, n := 0.0, 0.0
		for _, ex := range examples {
			if s, ok := ex.Scores[c]; ok && !math.IsNaN(s) {
				sum, n = sum+min(1, max(0, s)), n+1
			}
		}
		p := (sum + 0.5) / (n + 1)
		b[j] = math.Log(p / (1 - p))
	}
	return b
}

// fit runs SGD on the log loss plus L2/2·‖w‖² per example.
func (m *LogReg) fit(xs []sparse, ys [][]float64) {
	k := len(m.models)
	lambda, eta0 := m.opts.L2, 0.5
	scale := 1.0
	order := make([]int, len(xs))
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(m.opts.Seed, 0x5eed))
	margins := make([]float64, k)
	t := 0.0
	for range m.opts.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			eta := eta0 / (1 + eta0*lambda*t)
			t++
			scale *= 1 - eta*lambda
			m.margins(xs[i], scale, margins)
			for j := range k {
				y := ys[i][j]
				if math.IsNaN(y) {
					continue
				}
				g := sigmoid(margins[j]) - y
				for n, f := range xs[i].idx {
					m.w[int(f)*k+j] -= eta * g * xs[i].val[n] / scale
				}
				m.b[j] -= eta * g
			}
			if scale < 1e-6 {
				for n := range m.w {
					m.w[n] *= scale
				}
				scale = 1
			}
		}
	}
	for n := range m.w {
		m.w[n] *= scale
	}
}

// margins sets out[j] to candidate j's logit for x with weights scaled.
func (m *LogReg) margins(x sparse, scale float64, out []float64) {
	k := len(m.models)
	for j := range out {
		out[j] = 0
	}
	for n, f := range x.idx {
		row := m.w[int(f)*k : int(f)*k+k]
		for j := range out {
			out[j] += row[j] * x.val[n]
		}
	}
	for j := range out {
		out[j] = out[j]*scale + m.b[j]
	}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }
