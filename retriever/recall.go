package retriever

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// VectorRecall compares the vector leg as it runs (int8 code scan, exact
// re-rank of the best candidates) with an exact scan of every stored
// float vector.
type VectorRecall struct {
	Queries int `json:"queries"`
	K       int `json:"k"`
	// Recall is the mean share of the exact top K that the vector leg
	// also returns.
	Recall float64 `json:"recall"`
}

// MeasureVectorRecall embeds the query texts, runs the vector leg for each
// and scores all of them against every committed float vector in one pass
// over the store. It is slow (it reads every vector from disk) and exists
// to measure the compact scan.
func (ix *Index) MeasureVectorRecall(ctx context.Context, texts []string, k int) (VectorRecall, error) {
	out := VectorRecall{Queries: len(texts), K: k}
	if ix.emb == nil || ix.vec == nil {
		return out, errors.New("measure vector recall: no embedder configured")
	}
	if len(texts) == 0 || k <= 0 {
		return out, nil
	}
	qs, err := ix.emb.Embed(ctx, texts, RoleQuery)
	if err != nil {
		return out, fmt.Errorf("measure vector recall: embed queries: %w", err)
	}
	exact := make([]*topK, len(qs))
	for i, q := range qs {
		if len(q) != ix.vec.dims {
			return out, &DimensionError{Model: ix.emb.Model(), Got: len(q), Want: ix.vec.dims}
		}
		normalize(q)
		exact[i] = &topK{k: k}
	}
	if err := ix.scanAllVectors(ctx, qs, exact); err != nil {
		return out, err
	}
	var sum float64
	for i, q := range qs {
		got, err := ix.nearest(q, k, nil)
		if err != nil {
			return out, err
		}
		sum += overlap(got, exact[i].hits)
	}
	out.Recall = sum / float64(len(qs))
	return out, nil
}

// scanAllVectors offers every searchable stored vector to each query's top.
func (ix *Index) scanAllVectors(ctx context.Context, qs [][]float32, tops []*topK) error {
	buf := make([]float32, ix.vec.dims)
	return ix.db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Prefix = []byte(prefixVector)
		it := txn.NewIterator(opts)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			id := string(it.Item().Key()[len(prefixVector):])
			if !ix.vec.has(id) {
				continue
			}
			if err := it.Item().Value(func(b []byte) error { return decodeVector(b, buf) }); err != nil {
				return fmt.Errorf("vector %s: %w", id, err)
			}
			for i, q := range qs {
				tops[i].offer(vecHit{id: id, score: dot(q, buf)})
			}
		}
		return nil
	})
}

// overlap is the share of want found in got.
func overlap(got, want []vecHit) float64 {
	if len(want) == 0 {
		return 1
	}
	in := make(map[string]bool, len(got))
	for _, h := range got {
		in[h.id] = true
	}
	n := 0
	for _, h := range want {
		if in[h.id] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}
