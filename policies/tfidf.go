package policies

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// sparse is a feature vector: ascending indices and their values.
type sparse struct {
	idx []int32
	val []float64
}

// vectorizer turns text into L2-normalised TF-IDF vectors (sublinear term
// frequency, smoothed IDF) over a vocabulary fixed at training: words, and
// with bigrams also adjacent word pairs. Terms seen in fewer than minDF
// training texts are dropped.
type vectorizer struct {
	index   map[string]int32
	idf     []float64
	bigrams bool
}

// newVectorizer learns the vocabulary and IDF of texts.
func newVectorizer(texts []string, bigrams bool, minDF int) *vectorizer {
	df := map[string]int{}
	for _, t := range texts {
		for term := range features(t, bigrams) {
			df[term]++
		}
	}
	terms := make([]string, 0, len(df))
	for term, d := range df {
		if d >= minDF {
			terms = append(terms, term)
		}
	}
	slices.Sort(terms) // a stable feature order makes training reproducible
	v := &vectorizer{index: make(map[string]int32, len(terms)), idf: make([]float64, len(terms)), bigrams: bigrams}
	n := float64(len(texts))
	for i, term := range terms {
		v.index[term] = int32(i)
		v.idf[i] = math.Log((1+n)/(1+float64(df[term]))) + 1
	}
	return v
}

// dim is the number of features.
func (v *vectorizer) dim() int { return len(v.idf) }

// vector embeds text; terms outside the vocabulary carry no weight. The
// features are summed in index order, so equal texts embed bit-for-bit
// equally.
func (v *vectorizer) vector(text string) sparse {
	counts := map[int32]int{}
	for term, c := range features(text, v.bigrams) {
		if i, ok := v.index[term]; ok {
			counts[i] = c
		}
	}
	return weighCounts(counts, v.idf)
}

// weighCounts turns counts by feature index into an L2-normalised sparse
// TF-IDF vector, its indexes sorted.
func weighCounts(counts map[int32]int, idf []float64) sparse {
	var out sparse
	for i := range counts {
		out.idx = append(out.idx, i)
	}
	slices.Sort(out.idx)
	out.val = make([]float64, len(out.idx))
	norm := 0.0
	for k, i := range out.idx {
		w := (1 + math.Log(float64(counts[i]))) * idf[i]
		out.val[k] = w
		norm += w * w
	}
	norm = math.Sqrt(norm)
	for k := range out.val {
		out.val[k] /= norm
	}
	return out
}

// features counts the words of text and, with bigrams, its word pairs.
func features(text string, bigrams bool) map[string]int {
	words := wordsOf(text)
	counts := make(map[string]int, 2*len(words))
	for i, w := range words {
		counts[w]++
		if bigrams && i > 0 {
			counts[words[i-1]+" "+w]++
		}
	}
	return counts
}

// wordsOf splits text into lower-case words of letters or digits, the
// tokens termCounts counts.
func wordsOf(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
