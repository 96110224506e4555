package policies

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

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
	K        int
	examples []KNNExample
	idf      map[string]float64
	postings map[string]*postings // term → the examples holding it
	// cands are the scored candidates, sorted; score[i*len(cands)+j] is
	// example i's score for cands[j] when has says there is one (a
	// table, as reading the examples' maps was much of a prediction).
	cands []string
	score []float64
	has   []bool
}

// postings are the examples holding a term, in index order, and the term's
// weight in each: two arrays sized to the term's document frequency, as a
// large training set's index is most of a replay's knn memory.
type postings struct {
	docs    []int32
	weights []float64
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
	if k <= 0 {
		k = defaultK(len(examples))
	}
	m := &KNN{K: k, examples: examples, idf: map[string]float64{}, postings: map[string]*postings{}}
	df := map[string]int{}
	counts := make([]map[string]int, len(examples))
	for i, ex := range examples {
		counts[i] = termCounts(ex.Question)
		for t := range counts[i] {
			df[t]++
		}
	}
	for t, d := range df {
		m.idf[t] = smoothIDF(d, len(examples))
		m.postings[t] = &postings{docs: make([]int32, 0, d), weights: make([]float64, 0, d)}
	}
	m.tabulate()
	for i, c := range counts {
		for t, w := range m.weigh(c) {
			p := m.postings[t]
			p.docs = append(p.docs, int32(i))
			p.weights = append(p.weights, w)
		}
	}
	return m
}

// Len is the number of training examples.
func (m *KNN) Len() int { return len(m.examples) }

// Candidates lists every candidate with at least one training score, sorted.
func (m *KNN) Candidates() []string { return slices.Clone(m.cands) }

// tabulate lays out the examples' scores by candidate.
func (m *KNN) tabulate() {
	m.cands = scoredModels(m.examples)
	n := len(m.cands)
	m.score = make([]float64, len(m.examples)*n)
	m.has = make([]bool, len(m.examples)*n)
	for i, ex := range m.examples {
		for j, c := range m.cands {
			m.score[i*n+j], m.has[i*n+j] = ex.Scores[c]
		}
	}
}

// weigh turns term counts into an L2-normalised TF-IDF vector; terms unseen
// in training carry no weight.
func (m *KNN) weigh(counts map[string]int) map[string]float64 {
	vec := make(map[string]float64, len(counts))
	norm := 0.0
	for _, t := range sortedTerms(counts) { // a fixed order sums bit-for-bit alike every run
		c := counts[t]
		idf, ok := m.idf[t]
		if !ok {
			continue
		}
		w := (1 + math.Log(float64(c))) * idf
		vec[t] = w
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for t := range vec {
		vec[t] /= norm
	}
	return vec
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
	sims := make([]float64, len(m.examples))
	vec := m.weigh(termCounts(question))
	for _, t := range sortedTerms(vec) {
		w := vec[t]
		p := m.postings[t] // every weighed term has postings
		for k, doc := range p.docs {
			sims[doc] += w * p.weights[k]
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

// sortedTerms lists m's keys in order: summing floating-point terms in map
// order would let ties between neighbours fall differently from run to run.
func sortedTerms[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for t := range m {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// termCounts splits text into lower-case words of letters or digits.
func termCounts(text string) map[string]int {
	counts := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		counts[w]++
	}
	return counts
}
