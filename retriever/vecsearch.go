package retriever

import (
	"cmp"
	"container/heap"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// vecHit is one vector-leg result: cosine similarity to the query.
type vecHit struct {
	id    string
	score float32
}

// better orders hits by score, then by ID so results are deterministic.
func better(a, b vecHit) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.id < b.id
}

// topK keeps the k best hits seen; the worst sits at the root.
type topK struct {
	k    int
	hits []vecHit
}

func (t *topK) Len() int           { return len(t.hits) }
func (t *topK) Less(i, j int) bool { return better(t.hits[j], t.hits[i]) }
func (t *topK) Swap(i, j int)      { t.hits[i], t.hits[j] = t.hits[j], t.hits[i] }
func (t *topK) Push(x any)         { t.hits = append(t.hits, x.(vecHit)) }
func (t *topK) Pop() any {
	last := t.hits[len(t.hits)-1]
	t.hits = t.hits[:len(t.hits)-1]
	return last
}

func (t *topK) offer(h vecHit) {
	if len(t.hits) < t.k {
		heap.Push(t, h)
	} else if better(h, t.hits[0]) {
		t.hits[0] = h
		heap.Fix(t, 0)
	}
}

// sorted returns the kept hits, best first.
func (t *topK) sorted() []vecHit {
	out := slices.Clone(t.hits)
	slices.SortFunc(out, compareHits)
	return out
}

// candidates returns the c accepted rows whose codes score best against
// the normalised query q, with the codes' estimate of the score. Past
// 8192 rows the scan is split across the available cores.
func (s *vectorSet) candidates(q []float32, c int, accept func(id string) bool) []vecHit {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(q) != s.dims || c <= 0 || len(s.rows) == 0 {
		return nil
	}
	qc := quantizeQuery(q)
	n := len(s.ids)
	parts := 1
	if n >= 8192 {
		parts = runtime.GOMAXPROCS(0)
	}
	tops := make([]*topK, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		tops[p] = &topK{k: c}
		wg.Go(func() { s.scanCodes(qc, lo, hi, accept, tops[p]) })
	}
	wg.Wait()
	all := &topK{k: c}
	for _, t := range tops {
		for _, h := range t.hits {
			all.offer(h)
		}
	}
	return all.hits
}

func (s *vectorSet) scanCodes(q []int32, lo, hi int, accept func(string) bool, top *topK) {
	for r := lo; r < hi; r++ {
		id := s.ids[r]
		if id == "" || (accept != nil && !accept(id)) {
			continue
		}
		score := float32(dotCode(q, s.codes.row(r))) * s.scales[r]
		if len(top.hits) == top.k && score < top.hits[0].score {
			continue
		}
		top.offer(vecHit{id: id, score: score})
	}
}

// nearest returns the n chunks closest to the normalised query q among
// those accept allows: the code scan picks rerankDepth(n) candidates,
// whose float vectors are read from Badger and scored exactly.
func (ix *Index) nearest(q []float32, n int, accept func(string) bool) ([]vecHit, error) {
	return ix.rerank(q, n, ix.vec.candidates(q, ix.rerankDepth(n), accept))
}

// rerankDepth is how many candidates the exact re-rank of n hits reads.
func (ix *Index) rerankDepth(n int) int { return max(ix.opts.Candidates, 2*n) }

// rerank scores candidates with their stored float vectors and keeps the
// n best. A candidate removed since the scan is passed over.
func (ix *Index) rerank(q []float32, n int, cands []vecHit) ([]vecHit, error) {
	top := &topK{k: n}
	buf := make([]float32, len(q))
	err := ix.db.View(func(txn *badger.Txn) error {
		for _, c := range cands {
			item, err := txn.Get(vectorKey(c.id))
			if errors.Is(err, badger.ErrKeyNotFound) {
				continue
			}
			if err != nil {
				return fmt.Errorf("read vector %s: %w", c.id, err)
			}
			if err := item.Value(func(b []byte) error { return decodeVector(b, buf) }); err != nil {
				return fmt.Errorf("vector %s: %w", c.id, err)
			}
			top.offer(vecHit{id: c.id, score: dot(q, buf)})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("re-rank: %w", err)
	}
	return top.sorted(), nil
}

// compareHits is the sort order of better, for slices.SortFunc.
func compareHits(a, b vecHit) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}
