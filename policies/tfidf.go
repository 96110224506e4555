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
	lex     *lexVocab // set when lex held every training text; index is then nil
}

// newVectorizer learns the vocabulary and IDF of texts, from lex's
// tokenisation when it holds them all (lex may be nil).
func newVectorizer(texts []string, bigrams bool, minDF int, lex *Lexicon) *vectorizer {
	if lex != nil {
		if voc, df, ok := lex.words.vocabulary(texts, bigrams, minDF); ok {
			return &vectorizer{idf: idfOf(df, len(texts)), bigrams: bigrams, lex: voc}
		}
	}
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
	index, dfs := indexTerms(terms, df)
	return &vectorizer{index: index, idf: idfOf(dfs, len(texts)), bigrams: bigrams}
}

// indexTerms numbers sorted terms and lists their document frequencies in
// that order.
func indexTerms(terms []string, df map[string]int) (map[string]int32, []int) {
	index := make(map[string]int32, len(terms))
	dfs := make([]int, len(terms))
	for i, term := range terms {
		index[term] = int32(i)
		dfs[i] = df[term]
	}
	return index, dfs
}

// dim is the number of features.
func (v *vectorizer) dim() int { return len(v.idf) }

// vector embeds text; terms outside the vocabulary carry no weight. The
// features are summed in index order, so equal texts embed bit-for-bit
// equally.
func (v *vectorizer) vector(text string) sparse {
	index := v.index
	if v.lex != nil {
		if idx, counts, ok := v.lex.bag(text); ok {
			return weighSorted(idx, counts, v.idf)
		}
		index = v.lex.stringIndex()
	}
	counts := map[int32]int{}
	for term, c := range features(text, v.bigrams) {
		if i, ok := index[term]; ok {
			counts[i] = c
		}
	}
	return weighCounts(counts, v.idf)
}

// idfOf is the IDF of document frequencies over n texts, smoothed as if
// one more text held every term: ln((1+n)/(1+d)) + 1.
func idfOf(df []int, n int) []float64 {
	idf := make([]float64, len(df))
	for i, d := range df {
		idf[i] = math.Log((1+float64(n))/(1+float64(d))) + 1
	}
	return idf
}

// weighCounts turns counts by feature index into an L2-normalised sparse
// TF-IDF vector, its indexes sorted.
func weighCounts(counts map[int32]int, idf []float64) sparse {
	idx := make([]int32, 0, len(counts))
	for i := range counts {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	c := make([]int, len(idx))
	for k, i := range idx {
		c[k] = counts[i]
	}
	return weighSorted(idx, c, idf)
}

// weighSorted is weighCounts of ascending indexes and their counts; it
// keeps idx.
func weighSorted(idx []int32, counts []int, idf []float64) sparse {
	out := sparse{idx: idx, val: make([]float64, len(idx))}
	norm := 0.0
	for k, i := range idx {
		w := (1 + math.Log(float64(counts[k]))) * idf[i]
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

// wordsOf splits text into lower-case words of letters or digits.
func wordsOf(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
