package policies

import (
	"slices"
	"strings"
	"sync"
)

// Lexicon is the tokenisation of a fixed set of texts, done once: the
// words and word pairs the TF-IDF vectorizers count and the character
// n-grams of the matrix-factorisation features, each term an integer id in
// the terms' sorted order. A router trained on some of those texts (a
// replay trains one per fold, and the mf router more inside) then counts
// and looks up ids instead of cutting and hashing strings again, and
// learns bit for bit what it learns without. A text the lexicon does not
// hold is tokenised as before. A Lexicon is read-only once built and safe
// for concurrent use.
type Lexicon struct {
	words grams
	chars grams
}

// NewLexicon tokenises texts (duplicates once).
func NewLexicon(texts []string) *Lexicon {
	return &Lexicon{
		words: newGrams(texts, func(t string) map[string]int { return features(t, true) }, true),
		chars: newGrams(texts, charGramCounts, false),
	}
}

// charGramCounts counts text's character n-grams (see eachCharGram).
func charGramCounts(text string) map[string]int {
	counts := map[string]int{}
	eachCharGram(text, func(g string) { counts[g]++ })
	return counts
}

// grams is one kind of term: the sorted terms and each text's bag of them.
type grams struct {
	terms []string
	pair  []bool              // words only: the term is a word pair
	docs  map[string][]uint64 // text → id<<32 | count, ascending
}

// newGrams counts every text's terms, then numbers the terms in sorted
// order; words marks word pairs (terms with a space) as such.
func newGrams(texts []string, count func(string) map[string]int, words bool) grams {
	ids := map[string]uint32{}
	var terms []string
	g := grams{docs: make(map[string][]uint64, len(texts))}
	for _, t := range texts {
		if _, done := g.docs[t]; done {
			continue
		}
		counts := count(t)
		bag := make([]uint64, 0, len(counts))
		for term, n := range counts {
			id, ok := ids[term]
			if !ok {
				id = uint32(len(terms))
				term = strings.Clone(term) // the key outlives the text it was cut from
				ids[term] = id
				terms = append(terms, term)
			}
			bag = append(bag, uint64(id)<<32|uint64(min(n, 1<<32-1)))
		}
		g.docs[t] = bag
	}
	g.renumber(terms, words)
	return g
}

// renumber gives the terms, numbered as first seen, ids in their sorted
// order, in g.terms and in every bag; words marks word pairs.
func (g *grams) renumber(terms []string, words bool) {
	order := make([]uint32, len(terms))
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(terms[a], terms[b]) })
	rank := make([]uint64, len(terms))
	g.terms = make([]string, len(terms))
	for r, old := range order {
		rank[old] = uint64(r)
		g.terms[r] = terms[old]
	}
	if words {
		g.pair = make([]bool, len(g.terms))
		for id, t := range g.terms {
			g.pair[id] = strings.Contains(t, " ")
		}
	}
	for _, bag := range g.docs {
		for i, e := range bag {
			bag[i] = rank[e>>32]<<32 | e&(1<<32-1)
		}
		slices.Sort(bag)
	}
}

// lexVocab is one vectorizer's vocabulary over a lexicon's terms: the
// index of each term it kept, -1 for the others.
type lexVocab struct {
	g     *grams
	local []int32

	once  sync.Once
	index map[string]int32 // for texts the lexicon does not hold
}

// vocabulary learns which of g's terms texts keep (in minDF of them at
// least; word pairs only with pairs) and their document frequencies, in
// term order. ok is false when some text is not in g.
func (g *grams) vocabulary(texts []string, pairs bool, minDF int) (v *lexVocab, df []int, ok bool) {
	dropPairs := !pairs && g.pair != nil
	counts := make([]int32, len(g.terms))
	for _, t := range texts {
		bag, ok := g.docs[t]
		if !ok {
			return nil, nil, false
		}
		for _, e := range bag {
			counts[e>>32]++
		}
	}
	v = &lexVocab{g: g, local: make([]int32, len(g.terms))}
	for id, d := range counts {
		v.local[id] = -1
		if d > 0 && int(d) >= minDF && !(dropPairs && g.pair[id]) {
			v.local[id] = int32(len(df))
			df = append(df, int(d))
		}
	}
	return v, df, true
}

// bag is text's kept terms in index order and their counts; ok is false
// when the lexicon does not hold text.
func (v *lexVocab) bag(text string) (idx []int32, counts []int, ok bool) {
	entries, ok := v.g.docs[text]
	if !ok {
		return nil, nil, false
	}
	idx, counts = make([]int32, 0, len(entries)), make([]int, 0, len(entries))
	for _, e := range entries {
		if i := v.local[e>>32]; i >= 0 {
			idx = append(idx, i)
			counts = append(counts, int(e&(1<<32-1)))
		}
	}
	return idx, counts, true
}

// stringIndex is the kept terms by their text, built on first use.
func (v *lexVocab) stringIndex() map[string]int32 {
	v.once.Do(func() {
		v.index = map[string]int32{}
		for id, i := range v.local {
			if i >= 0 {
				v.index[v.g.terms[id]] = i
			}
		}
	})
	return v.index
}
