package policies

import (
	"math"
	"slices"
)

// TaskPrior predicts a candidate's success on a question as its mean score
// over the training questions of each task family, weighed by how likely
// the question is to belong to that family:
//
//	p_m(x) = Σ_t P(t | x) · mean_m(t)
//
// P(t | x) comes from a task classifier trained on the examples' recorded
// families: one calibrated logistic regression per family over MF's
// features (no shared embedding), the probabilities normalised to sum to
// one. mean_m(t) is model m's mean score in family t, shrunk toward its
// overall mean by a few pseudo-examples.
//
// Under cross-validation on the routing set's train split, the per-query
// predictors (knn, lr, mf) chose worse than this: within a family their
// per-question signal is weak, and its noise sends questions to a model
// that is worse on average; a family's mean is the steadier evidence.
type TaskPrior struct {
	classifier *MF
	tasks      []string    // sorted
	means      [][]float64 // per task, per model; NaN: no model score at all
	models     []string    // sorted
	examples   int
	// prior is each family's share of the training examples when
	// TaskPriorOptions.Balanced divides it out of P(t | x); nil otherwise.
	prior []float64
}

var _ Router = (*TaskPrior)(nil)

// TaskPriorOptions tune TrainTaskPrior; zero fields take the defaults.
type TaskPriorOptions struct {
	// Smoothing is how many pseudo-examples at the model's overall mean
	// each family's mean starts from; default 5.
	Smoothing float64
	// Classifier are the task classifier's settings; zero fields take
	// DefaultTaskClassifier's.
	Classifier MFOptions
	// Balanced divides each family's training share out of P(t | x)
	// before normalising: the families' posterior under an even mix.
	Balanced bool
}

// DefaultTaskClassifier are the task classifier's settings: per-family
// linear terms over words, character n-grams and length, lightly
// penalised, no shared embedding. On the validation part of the routing
// set's train split it named the family of 90% of questions (MF's default
// settings: 88%; the majority family of the 10 nearest questions by knn's
// TF-IDF: 81%).
var DefaultTaskClassifier = MFOptions{Dim: -1, L2: 1e-4}

// TrainTaskPrior learns the task classifier and every model's smoothed mean
// score per family. ok is false when some example records no family (or
// all record the same one): there is nothing to classify. Training is
// deterministic.
func TrainTaskPrior(examples []KNNExample, opts TaskPriorOptions) (*TaskPrior, bool) {
	tasks, labels := taskLabels(examples)
	if len(tasks) < 2 {
		return nil, false
	}
	copts := opts.Classifier.or(DefaultTaskClassifier)
	oneHot := make([]KNNExample, len(examples))
	for i, ex := range examples {
		s := make(map[string]float64, len(tasks))
		for j, t := range tasks {
			s[t] = 0
			if j == labels[i] {
				s[t] = 1
			}
		}
		oneHot[i] = KNNExample{Question: ex.Question, Scores: s}
	}
	smoothing := opts.Smoothing
	if smoothing <= 0 {
		smoothing = 5
	}
	models := scoredModels(examples)
	p := &TaskPrior{
		classifier: TrainMF(oneHot, copts),
		tasks:      tasks,
		means:      taskMeans(scoreLabels(examples, models), labels, len(tasks), smoothing),
		models:     models,
		examples:   len(examples),
	}
	if opts.Balanced {
		p.prior = make([]float64, len(tasks))
		for _, l := range labels {
			p.prior[l] += 1 / float64(len(labels))
		}
	}
	return p, true
}

// taskLabels are the sorted distinct families and each example's index
// among them; nil when some example records none.
func taskLabels(examples []KNNExample) ([]string, []int) {
	names := make([]string, 0, len(examples))
	for _, ex := range examples {
		if ex.Task == "" {
			return nil, nil
		}
		names = append(names, ex.Task)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	labels := make([]int, len(examples))
	for i, ex := range examples {
		labels[i], _ = slices.BinarySearch(names, ex.Task)
	}
	return names, labels
}

// Predict returns each allowed candidate's expected score over the
// question's likely families.
func (p *TaskPrior) Predict(question string, allowed []string) map[string]float64 {
	share := p.Families(question)
	out := make(map[string]float64, len(allowed))
	for _, c := range allowed {
		j, ok := slices.BinarySearch(p.models, c)
		if !ok || math.IsNaN(p.means[0][j]) {
			continue
		}
		sum := 0.0
		for t, w := range share {
			sum += w * p.means[t][j]
		}
		out[c] = sum
	}
	return out
}

// Families is P(t | question) per family, in Tasks order, summing to one.
func (p *TaskPrior) Families(question string) []float64 {
	pred := p.classifier.Predict(question, p.tasks)
	share := make([]float64, len(p.tasks))
	tot := 0.0
	for t, name := range p.tasks {
		share[t] = pred[name]
		if p.prior != nil {
			share[t] /= p.prior[t]
		}
		tot += share[t]
	}
	for t := range share {
		if tot > 0 {
			share[t] /= tot
		} else {
			share[t] = 1 / float64(len(share))
		}
	}
	return share
}

// Tasks lists the families, sorted.
func (p *TaskPrior) Tasks() []string { return slices.Clone(p.tasks) }

// Candidates lists the candidates with a score, sorted.
func (p *TaskPrior) Candidates() []string { return slices.Clone(p.models) }

// Len is the number of training examples.
func (p *TaskPrior) Len() int { return p.examples }

// taskMeans is, per family and model, (sum + s·overall)/(n + s): the
// family's mean shrunk toward the model's overall mean by s
// pseudo-examples. A model no example scores is NaN everywhere.
func taskMeans(ys [][]float64, labels []int, k int, s float64) [][]float64 {
	models := 0
	if len(ys) > 0 {
		models = len(ys[0])
	}
	sum, n := make([][]float64, k), make([][]float64, k)
	for t := range k {
		sum[t], n[t] = make([]float64, models), make([]float64, models)
	}
	all, allN := make([]float64, models), make([]float64, models)
	for i, y := range ys {
		for j, v := range y {
			if !math.IsNaN(v) {
				sum[labels[i]][j] += v
				n[labels[i]][j]++
				all[j] += v
				allN[j]++
			}
		}
	}
	out := make([][]float64, k)
	for t := range k {
		out[t] = make([]float64, models)
		for j := range models {
			if allN[j] == 0 {
				out[t][j] = math.NaN()
				continue
			}
			out[t][j] = (sum[t][j] + s*all[j]/allN[j]) / (n[t][j] + s)
		}
	}
	return out
}
