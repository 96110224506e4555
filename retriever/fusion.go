package retriever

import (
	"cmp"
	"slices"
)

// rrfK is the rank constant of reciprocal rank fusion.
const rrfK = 60

// fuseRRF merges rankings: score(d) = Σ 1 / (k + rank(d)), ranks from 1,
// nothing from a ranking that lacks d. Ties are broken by chunk ID so the
// output is deterministic.
func fuseRRF(k int, rankings ...[]rankedID) []rankedID {
	scores := map[string]float64{}
	for _, ranking := range rankings {
		for i, r := range ranking {
			scores[r.id] += 1 / float64(k+i+1)
		}
	}
	out := make([]rankedID, 0, len(scores))
	for id, s := range scores {
		out = append(out, rankedID{id: id, score: s})
	}
	slices.SortFunc(out, func(a, b rankedID) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	return out
}
