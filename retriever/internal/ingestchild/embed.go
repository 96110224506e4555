package main

import (
	"context"
	"hash/fnv"
	"strings"

	"github.com/toolhub/toolhub/retriever"
)

// wordHash embeds a text as the sum of ±1 at a hashed dimension per word.
type wordHash struct{ dims int }

func (w wordHash) Model() string   { return "wordhash" }
func (w wordHash) Dimensions() int { return w.dims }

func (w wordHash) Embed(_ context.Context, texts []string, _ retriever.Role) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, w.dims)
		for _, word := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New64a()
			h.Write([]byte(word))
			s := h.Sum64()
			sign := float32(1)
			if s>>63 == 1 {
				sign = -1
			}
			v[s%uint64(w.dims)] += sign
		}
		out[i] = v
	}
	return out, nil
}
