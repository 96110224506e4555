package retriever

import (
	"context"
	"math"
	"strings"
)

// Role says whether texts are documents being indexed or search queries;
// some embedding models expect a different prefix for each.
type Role int

const (
	RoleDocument Role = iota
	RoleQuery
)

// Embedder turns texts into vectors of a fixed dimension. Implementations
// return one vector per input, in input order.
type Embedder interface {
	Embed(ctx context.Context, texts []string, role Role) ([][]float32, error)
	// Model names the model; with Dimensions it stamps the index, and a
	// change of either re-embeds every chunk.
	Model() string
	Dimensions() int
}

// modelPrefix is the text some model families expect before each input.
func modelPrefix(model string, role Role) string {
	m := strings.ToLower(model)
	switch {
	case strings.Contains(m, "nomic-embed"):
		if role == RoleQuery {
			return "search_query: "
		}
		return "search_document: "
	case strings.Contains(m, "e5-") || strings.HasPrefix(m, "e5"):
		if role == RoleQuery {
			return "query: "
		}
		return "passage: "
	case strings.Contains(m, "qwen3-embedding") && role == RoleQuery:
		return "Instruct: Given a search query, retrieve relevant passages\nQuery:"
	}
	return ""
}

// normalize scales v to unit length in place, so cosine similarity is a
// dot product. A zero vector stays zero.
func normalize(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}
