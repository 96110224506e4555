package retriever

import (
	"cmp"
	"container/heap"
	"runtime"
	"slices"
	"sync"
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

// search returns the k rows most similar to the normalised query q among
// those accept allows. Up to exactLimit live rows it scans every row;
// beyond, the sign codes pick `candidates` rows by Hamming distance and
// only those are scored exactly.
func (s *vectorSet) search(q []float32, k int, accept func(id string) bool, exactLimit, candidates int) []vecHit {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(q) != s.dims || k <= 0 {
		return nil
	}
	if len(s.rows) <= exactLimit {
		return s.exact(q, k, accept)
	}
	return s.rerank(q, k, s.prefilter(q, candidates, accept))
}

// exact scores every live row, split across the available cores.
func (s *vectorSet) exact(q []float32, k int, accept func(string) bool) []vecHit {
	n := len(s.ids)
	parts := 1
	if n >= 8192 {
		parts = runtime.GOMAXPROCS(0)
	}
	tops := make([]*topK, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*n/parts, (p+1)*n/parts
		tops[p] = &topK{k: k}
		wg.Go(func() { s.scanRange(q, lo, hi, accept, tops[p]) })
	}
	wg.Wait()
	all := &topK{k: k}
	for _, t := range tops {
		for _, h := range t.hits {
			all.offer(h)
		}
	}
	return all.sorted()
}

func (s *vectorSet) scanRange(q []float32, lo, hi int, accept func(string) bool, top *topK) {
	for r := lo; r < hi; r++ {
		id := s.ids[r]
		if id == "" || (accept != nil && !accept(id)) {
			continue
		}
		top.offer(vecHit{id: id, score: dot(q, s.data[r*s.dims:])})
	}
}

// prefilter returns up to c live, accepted rows with the smallest Hamming
// distance to the query's sign code, chosen with a distance histogram.
func (s *vectorSet) prefilter(q []float32, c int, accept func(string) bool) []int {
	code := make([]uint64, s.words)
	signCode(q, code)
	dist := make([]uint32, len(s.ids))
	hist := make([]int, s.dims+2)
	for r, id := range s.ids {
		if id == "" || (accept != nil && !accept(id)) {
			dist[r] = uint32(s.dims + 1) // marks an excluded row
			continue
		}
		d := hamming(code, s.codes[r*s.words:(r+1)*s.words])
		dist[r] = uint32(d)
		hist[d]++
	}
	limit, taken := 0, 0
	for limit <= s.dims && taken+hist[limit] < c {
		taken += hist[limit]
		limit++
	}
	room := c - taken // rows allowed at distance == limit
	rows := make([]int, 0, c)
	for r, d := range dist {
		switch {
		case int(d) < limit:
			rows = append(rows, r)
		case int(d) == limit && limit <= s.dims && room > 0:
			rows = append(rows, r)
			room--
		}
	}
	return rows
}

// rerank scores the candidate rows exactly and keeps the k best.
func (s *vectorSet) rerank(q []float32, k int, rows []int) []vecHit {
	top := &topK{k: k}
	for _, r := range rows {
		top.offer(vecHit{id: s.ids[r], score: dot(q, s.data[r*s.dims:])})
	}
	return top.sorted()
}

// compareHits is the sort order of better, for slices.SortFunc.
func compareHits(a, b vecHit) int {
	if c := cmp.Compare(b.score, a.score); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}
