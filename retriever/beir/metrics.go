package beir

import (
	"math"
	"slices"
	"sort"
	"time"
)

// NDCG is nDCG@k of one ranking: DCG = Σ (2^rel − 1) / log2(rank + 1)
// over the top k, divided by the DCG of the judged documents in their
// ideal order. A query without relevant judgements scores 0.
func NDCG(ranked []string, rel map[string]int, k int) float64 {
	var dcg float64
	for i, id := range ranked[:min(k, len(ranked))] {
		if g := rel[id]; g > 0 {
			dcg += gain(g) / math.Log2(float64(i+2))
		}
	}
	grades := make([]int, 0, len(rel))
	for _, g := range rel {
		if g > 0 {
			grades = append(grades, g)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(grades)))
	var ideal float64
	for i, g := range grades[:min(k, len(grades))] {
		ideal += gain(g) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

func gain(g int) float64 { return math.Exp2(float64(g)) - 1 }

// Recall is the share of relevant documents found in the top k.
func Recall(ranked []string, rel map[string]int, k int) float64 {
	relevant := 0
	for _, g := range rel {
		if g > 0 {
			relevant++
		}
	}
	if relevant == 0 {
		return 0
	}
	found := 0
	for _, id := range ranked[:min(k, len(ranked))] {
		if rel[id] > 0 {
			found++
		}
	}
	return float64(found) / float64(relevant)
}

// Percentile is the p-th percentile (0–100) of ds by the nearest-rank
// method; 0 for no samples.
func Percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	return s[min(max(rank, 1), len(s))-1]
}

// Dedupe keeps the first occurrence of each ID: the best rank of a
// document whose chunks appear several times (max-pooling).
func Dedupe(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
