package policies

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// lexiconTexts mixes repeats, punctuation, case, non-ASCII runes, invalid
// UTF-8 and an empty text.
func lexiconTexts() []string {
	texts := []string{"", "Hello, hello world!", "def f(x):\n  return x**2", "Ωmega İstanbul ß straße", "a\xffb \xc3 tail"}
	for i := range 40 {
		texts = append(texts, fmt.Sprintf("Q%d: which river is longer, the Nile or the Amazon? (A) Nile (B) Amazon #%d", i%7, i%5))
		texts = append(texts, fmt.Sprintf("Solve %d + %d = ? Show your work; the answer is a number.", i, 3*i))
	}
	return append(texts, texts[7], texts[8]) // repeated texts count twice
}

func sameSparse(a, b sparse) bool { return slices.Equal(a.idx, b.idx) && slices.Equal(a.val, b.val) }

// TestLexiconVectorsAreTheStringPathsBitForBit trains vectorizers on part
// of the texts a lexicon holds (a fold) and checks every text, held or not,
// embeds exactly as without the lexicon.
func TestLexiconVectorsAreTheStringPathsBitForBit(t *testing.T) {
	all := lexiconTexts()
	lex := NewLexicon(all)
	unseen := []string{"an unseen question about the Nile", "Ωmega again", ""}
	cases := []struct {
		name    string
		train   []string
		bigrams bool
		minDF   int
	}{
		{"all texts, pairs, min df 2", all, true, 2},
		{"a fold, pairs, min df 2", all[:len(all)*2/3], true, 2},
		{"a fold, words only, min df 1", all[len(all)/3:], false, 1},
		{"min df 0 keeps only terms the texts have", all[:10], true, 0},
		{"a training text the lexicon lacks", append(slices.Clone(all[:20]), "not in the lexicon at all"), true, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plainW, lexW := newVectorizer(tc.train, tc.bigrams, tc.minDF, nil), newVectorizer(tc.train, tc.bigrams, tc.minDF, lex)
			plainC, lexC := newCharVectorizer(tc.train, tc.minDF, nil), newCharVectorizer(tc.train, tc.minDF, lex)
			if plainW.dim() != lexW.dim() || plainC.dim() != lexC.dim() {
				t.Fatalf("dims %d/%d words, %d/%d chars", plainW.dim(), lexW.dim(), plainC.dim(), lexC.dim())
			}
			if !slices.Equal(plainW.idf, lexW.idf) || !slices.Equal(plainC.idf, lexC.idf) {
				t.Fatal("idf differs")
			}
			for _, text := range append(slices.Clone(all), unseen...) {
				if !sameSparse(plainW.vector(text), lexW.vector(text)) {
					t.Fatalf("word vector of %q differs", text)
				}
				if !sameSparse(plainC.vector(text), lexC.vector(text)) {
					t.Fatalf("char vector of %q differs", text)
				}
			}
		})
	}
}

// TestLexiconLeavesRoutersUnchanged trains the routers that cut words (and
// n-grams) with and without a lexicon; their predictions must be identical,
// on the training questions and on others.
func TestLexiconLeavesRoutersUnchanged(t *testing.T) {
	texts := lexiconTexts()
	var examples []KNNExample
	for i, q := range texts {
		scores := map[string]float64{"small": float64(i % 2), "big": float64((i / 3) % 2), "mid": 0.5}
		examples = append(examples, KNNExample{Question: q, Scores: scores, Task: []string{"math", "qa", "code"}[i%3]})
	}
	lex := NewLexicon(append(slices.Clone(texts), "held out: which river is longer?"))
	noFamilies := make([]KNNExample, len(examples))
	for i, ex := range examples {
		ex.Task = ""
		noFamilies[i] = ex
	}
	cases := []struct {
		name  string
		train func(*Lexicon) Router
	}{
		{"lr", func(l *Lexicon) Router { return TrainLogReg(examples, LogRegOptions{Lexicon: l}) }},
		{"lr, words only", func(l *Lexicon) Router { return TrainLogReg(examples, LogRegOptions{Lexicon: l, NoBigrams: true}) }},
		{"mf with families", func(l *Lexicon) Router { return TrainMFRouter(examples, MFOptions{Lexicon: l}, 0) }},
		{"mf without families", func(l *Lexicon) Router { return TrainMFRouter(noFamilies, MFOptions{Lexicon: l}, 0) }},
		{"knn", func(l *Lexicon) Router { return TrainKNNWith(examples, KNNOptions{K: 4, Lexicon: l}) }},
	}
	models := []string{"big", "mid", "small"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			plain, withLex := tc.train(nil), tc.train(lex)
			for _, q := range append(slices.Clone(texts), "held out: which river is longer?", "never tokenised before") {
				if a, b := plain.Predict(q, models), withLex.Predict(q, models); !maps.Equal(a, b) {
					t.Fatalf("%q: %v without the lexicon, %v with", q, a, b)
				}
			}
		})
	}
}
