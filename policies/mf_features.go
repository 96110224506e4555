package policies

import (
	"math"
	"slices"
	"strings"
)

// featurizer turns a question into the matrix-factorisation router's
// feature vector, three blocks side by side: the TF-IDF words and word
// pairs of vectorizer, TF-IDF character n-grams inside whitespace-separated
// tokens (punctuation kept, so code, formulas and answer-choice layouts
// show), and a one-hot bucket of the question's length. Each text block is
// L2-normalised and weighted, so neither swamps the other.
type featurizer struct {
	words     *vectorizer
	chars     *charVectorizer // nil: no character block
	wordScale float64
	charScale float64
	lenScale  float64
}

// lengthBuckets is how many log2 buckets of the question length in
// characters the length block has (the last one open-ended).
const lengthBuckets = 14

// newFeaturizer learns the vocabularies of texts. charScale 0 leaves the
// character block out; lenScale 0 the length block.
func newFeaturizer(texts []string, o MFOptions) *featurizer {
	f := &featurizer{words: newVectorizer(texts, true, o.MinDF, o.Lexicon), wordScale: 1, lenScale: o.LengthWeight}
	if o.CharWeight > 0 {
		f.chars = newCharVectorizer(texts, o.MinDF, o.Lexicon)
		f.charScale = o.CharWeight
	}
	norm := math.Sqrt(f.wordScale*f.wordScale + f.charScale*f.charScale)
	f.wordScale /= norm
	f.charScale /= norm
	return f
}

// dim is the number of features.
func (f *featurizer) dim() int {
	n := f.words.dim() + lengthBuckets
	if f.chars != nil {
		n += f.chars.dim()
	}
	return n
}

// vector embeds text: the word block, then the character block, then the
// length bucket.
func (f *featurizer) vector(text string) sparse {
	w := f.words.vector(text)
	var c sparse
	if f.chars != nil {
		c = f.chars.vector(text)
	}
	// Sized once: a training set's rows are the largest share of a
	// replay's memory, and growing a row by appends leaves part of its
	// capacity unused.
	n := len(w.idx) + len(c.idx) + 1
	out := sparse{idx: make([]int32, 0, n), val: make([]float64, 0, n)}
	out.idx = append(out.idx, w.idx...)
	for _, x := range w.val {
		out.val = append(out.val, x*f.wordScale)
	}
	off := int32(f.words.dim())
	if f.chars != nil {
		for k, i := range c.idx {
			out.idx = append(out.idx, off+i)
			out.val = append(out.val, c.val[k]*f.charScale)
		}
		off += int32(f.chars.dim())
	}
	if f.lenScale > 0 {
		out.idx = append(out.idx, off+int32(lengthBucket(text)))
		out.val = append(out.val, f.lenScale)
	}
	return out
}

// lengthBucket is floor(log2(characters)), capped to the buckets there are.
func lengthBucket(text string) int {
	n := len([]rune(text))
	b := 0
	for n > 1 && b < lengthBuckets-1 {
		n >>= 1
		b++
	}
	return b
}

// charVectorizer is vectorizer over character n-grams (3 to 5 long) of the
// lower-cased whitespace-separated tokens, each padded with a space on both
// sides.
type charVectorizer struct {
	index map[string]int32
	idf   []float64
	lex   *lexVocab // set when lex held every training text; index is then nil
}

func newCharVectorizer(texts []string, minDF int, lex *Lexicon) *charVectorizer {
	if lex != nil {
		if voc, df, ok := lex.chars.vocabulary(texts, false, minDF); ok {
			return &charVectorizer{idf: idfOf(df, len(texts)), lex: voc}
		}
	}
	df := map[string]int{}
	seen := map[string]bool{}
	for _, t := range texts {
		clear(seen)
		eachCharGram(t, func(g string) {
			if !seen[g] {
				seen[g] = true
				if _, ok := df[g]; !ok {
					g = strings.Clone(g) // the key outlives the text it was cut from
				}
				df[g]++
			}
		})
	}
	terms := make([]string, 0, len(df))
	for g, d := range df {
		if d >= minDF {
			terms = append(terms, g)
		}
	}
	slices.Sort(terms)
	index, dfs := indexTerms(terms, df)
	return &charVectorizer{index: index, idf: idfOf(dfs, len(texts))}
}

func (v *charVectorizer) dim() int { return len(v.idf) }

// vector is the L2-normalised TF-IDF (sublinear term frequency) of text's
// known n-grams, in index order.
func (v *charVectorizer) vector(text string) sparse {
	index := v.index
	if v.lex != nil {
		if idx, counts, ok := v.lex.bag(text); ok {
			return weighSorted(idx, counts, v.idf)
		}
		index = v.lex.stringIndex()
	}
	counts := map[int32]int{}
	eachCharGram(text, func(g string) {
		if i, ok := index[g]; ok {
			counts[i]++
		}
	})
	return weighCounts(counts, v.idf)
}

// eachCharGram calls fn with every 3- to 5-character n-gram of text's
// lower-cased tokens, each padded with a space on both sides. The n-grams
// are substrings of one copy of the token, not strings of their own: fn
// must copy one it keeps. strings.ToLower leaves valid UTF-8, so cutting at
// rune starts gives the runes' own n-grams.
func eachCharGram(text string, fn func(string)) {
	var starts []int
	for _, tok := range strings.Fields(strings.ToLower(text)) {
		p := " " + tok + " "
		starts = starts[:0]
		for i := range p {
			starts = append(starts, i)
		}
		starts = append(starts, len(p))
		runes := len(starts) - 1
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= runes; i++ {
				fn(p[starts[i]:starts[i+n]])
			}
		}
	}
}
