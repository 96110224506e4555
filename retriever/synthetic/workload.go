package synthetic

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/toolhub/toolhub/retriever"
)

// vocabulary is a fixed set of made-up words; documents draw from it with
// a Zipf distribution, as natural text does.
func vocabulary(r *rand.Rand, n int) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	words := make([]string, n)
	seen := map[string]bool{}
	for i := range words {
		for {
			var b strings.Builder
			for range 4 + r.IntN(6) {
				b.WriteByte(letters[r.IntN(len(letters))])
			}
			if w := b.String(); !seen[w] {
				seen[w], words[i] = true, w
				break
			}
		}
	}
	return words
}

// textGen writes random sentences from the vocabulary.
type textGen struct {
	words []string
	zipf  *rand.Zipf
}

func newTextGen(seed uint64, vocab int) *textGen {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return &textGen{words: vocabulary(r, vocab), zipf: rand.NewZipf(r, 1.1, 2, uint64(vocab-1))}
}

func (g *textGen) phrase(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.words[g.zipf.Uint64()]
	}
	return strings.Join(parts, " ")
}

// documents makes n one-chunk documents of about wordsPerDoc words,
// numbered from first.
func (g *textGen) documents(first, n, wordsPerDoc int) []retriever.Document {
	docs := make([]retriever.Document, n)
	for k := range docs {
		i := first + k
		docs[k] = retriever.Document{
			Path:  fmt.Sprintf("synthetic/%03d/%07d", i%1000, i),
			Title: g.phrase(3),
			Text:  g.phrase(wordsPerDoc),
		}
	}
	return docs
}

// randomEmbedder maps each text to a pseudo-random unit vector seeded by
// the text's hash: the vector workload of an embedding model without the
// model.
type randomEmbedder struct{ dims int }

func (e randomEmbedder) Model() string   { return "random" }
func (e randomEmbedder) Dimensions() int { return e.dims }

func (e randomEmbedder) Embed(_ context.Context, texts []string, _ retriever.Role) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		h := fnv.New64a()
		h.Write([]byte(t))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		v := make([]float32, e.dims)
		var sum float64
		for j := range v {
			v[j] = float32(r.NormFloat64())
			sum += float64(v[j]) * float64(v[j])
		}
		inv := float32(1 / math.Sqrt(sum))
		for j := range v {
			v[j] *= inv
		}
		out[i] = v
	}
	return out, nil
}
