package policies

import "slices"

// KNNExample is one past task with the outcome each candidate model had on
// it (a score in [0,1]; candidates that never ran it are absent).
type KNNExample struct {
	Question string             `json:"question"`
	Scores   map[string]float64 `json:"scores"`
	// Task is the example's task family, when recorded; routers that
	// group questions use it.
	Task string `json:"task,omitempty"`
}

// KNN predicts each candidate's success on a new task from the outcomes of
// its nearest past tasks: tasks are TF-IDF bags of words (sublinear term
// frequency, smoothed IDF, L2-normalised), similarity is cosine, and a
// candidate's predicted success is the similarity-weighted mean of its
// scores over the K nearest examples that have a score for it.
type KNN struct {
	K   int
	n   int         // training examples
	vec *vectorizer // words, every one seen in training
	// The inverted index, by word: the examples holding word f are
	// docs[offs[f]:offs[f+1]], in index order, with the word's weight in
	// each at the same places of weights.
	offs    []int32
	docs    []int32
	weights []float64
	// cands are the scored candidates, sorted; score[i*len(cands)+j] is
	// example i's score for cands[j] when has says there is one (a
	// table, as reading the examples' maps was much of a prediction).
	cands []string
	score []float64
	has   []bool
}

// KNNOptions configure TrainKNNWith.
type KNNOptions struct {
	K int // neighbours; ≤ 0: defaultK
	// Lexicon, when set, holds the tokenisation of the training texts
	// (and of questions to predict), done once; it changes no result.
	Lexicon *Lexicon
}

// DefaultKNNNeighbours caps K when none is given; chosen on a held-out
// fifth of the routing set's train split (never on its test split).
const DefaultKNNNeighbours = 200

// defaultK is about 4% of the examples (so a small training file does not
// average over unrelated tasks), at least 1 and at most DefaultKNNNeighbours.
func defaultK(examples int) int {
	return min(DefaultKNNNeighbours, max(1, examples/25))
}

// TrainKNN indexes the examples. k ≤ 0 picks K from the number of
// examples (see defaultK).
func TrainKNN(examples []KNNExample, k int) *KNN {
	return TrainKNNWith(examples, KNNOptions{K: k})
}

// TrainKNNWith indexes the examples as opts say.
func TrainKNNWith(examples []KNNExample, opts KNNOptions) *KNN {
	k := opts.K
	if k <= 0 {
		k = defaultK(len(examples))
	}
	m := &KNN{K: k, n: len(examples), vec: newVectorizer(questionsOf(examples), false, 1, opts.Lexicon)}
	m.tabulate(examples)
	xs := make([]sparse, len(examples))
	m.offs = make([]int32, m.vec.dim()+1)
	for i, ex := range examples {
		xs[i] = m.vec.vector(ex.Question)
		for _, f := range xs[i].idx {
			m.offs[f+1]++
		}
	}
	for f := range m.vec.dim() {
		m.offs[f+1] += m.offs[f]
	}
	next := slices.Clone(m.offs[:len(m.offs)-1])
	m.docs = make([]int32, m.offs[len(m.offs)-1])
	m.weights = make([]float64, len(m.docs))
	for i, x := range xs {
		for n, f := range x.idx {
			m.docs[next[f]], m.weights[next[f]] = int32(i), x.val[n]
			next[f]++
		}
	}
	return m
}

// Len is the number of training examples.
func (m *KNN) Len() int { return m.n }

// Candidates lists every candidate with at least one training score, sorted.
func (m *KNN) Candidates() []string { return slices.Clone(m.cands) }

// tabulate lays out the examples' scores by candidate.
func (m *KNN) tabulate(examples []KNNExample) {
	m.cands = scoredModels(examples)
	n := len(m.cands)
	m.score = make([]float64, len(examples)*n)
	m.has = make([]bool, len(examples)*n)
	for i, ex := range examples {
		for j, c := range m.cands {
			m.score[i*n+j], m.has[i*n+j] = ex.Scores[c]
		}
	}
}

// Neighbour is a training example and its cosine similarity to a query.
type Neighbour struct {
	Index      int
	Similarity float64
}

// Nearest returns the k most similar training examples, most similar first
// (ties by lower index), leaving out those with no shared term.
func (m *KNN) Nearest(question string, k int) []Neighbour {
	if k <= 0 {
		return nil
	}
	sims := make([]float64, m.n)
	// Words in index order, which is their sorted order: the sums come
	// out bit for bit alike every run.
	vec := m.vec.vector(question)
	for n, f := range vec.idx {
		w := vec.val[n]
		lo, hi := m.offs[f], m.offs[f+1]
		weights := m.weights[lo:hi]
		for k, doc := range m.docs[lo:hi] {
			sims[doc] += w * weights[k]
		}
	}
	out := make([]Neighbour, 0, k+1)
	for i, s := range sims {
		if s <= 0 {
			continue
		}
		out = insertNeighbour(out, Neighbour{Index: i, Similarity: s}, k)
	}
	return out
}

// insertNeighbour keeps nbs sorted, most similar first, and at most k long.
func insertNeighbour(nbs []Neighbour, nb Neighbour, k int) []Neighbour {
	if len(nbs) == k && nb.Similarity <= nbs[k-1].Similarity {
		return nbs
	}
	i, _ := slices.BinarySearchFunc(nbs, nb, func(a, b Neighbour) int {
		switch {
		case a.Similarity > b.Similarity:
			return -1
		case a.Similarity < b.Similarity:
			return 1
		}
		return a.Index - b.Index
	})
	nbs = slices.Insert(nbs, i, nb)
	if len(nbs) > k {
		nbs = nbs[:k]
	}
	return nbs
}

// Predict returns each allowed candidate's predicted success on question.
// A candidate no neighbour has a score for is left out.
func (m *KNN) Predict(question string, allowed []string) map[string]float64 {
	cols := make([]int, 0, len(allowed))
	for _, c := range allowed {
		if j, ok := slices.BinarySearch(m.cands, c); ok && !slices.Contains(cols, j) {
			cols = append(cols, j)
		}
	}
	num := make([]float64, len(cols))
	den := make([]float64, len(cols))
	n := len(m.cands)
	for _, nb := range m.Nearest(question, m.K) {
		for k, j := range cols {
			if !m.has[nb.Index*n+j] {
				continue
			}
			num[k] += nb.Similarity * m.score[nb.Index*n+j]
			den[k] += nb.Similarity
		}
	}
	out := make(map[string]float64, len(cols))
	for k, j := range cols {
		if den[k] > 0 {
			out[m.cands[j]] = num[k] / den[k]
		}
	}
	return out
}
