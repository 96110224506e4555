package retriever

import (
	"slices"
	"sync"
)

// vectorSet holds the committed chunk vectors in one contiguous float32
// slab with a sign code per row. Removed rows become tombstones until
// enough pile up to compact.
type vectorSet struct {
	mu    sync.RWMutex
	dims  int
	words int // uint64 words per sign code
	ids   []string
	data  []float32
	codes []uint64
	rows  map[string]int
	dead  int
}

func newVectorSet(dims int) *vectorSet {
	return &vectorSet{dims: dims, words: (dims + 63) / 64, rows: map[string]int{}}
}

// add stores (or replaces) the vector of a chunk; v must be normalised.
func (s *vectorSet) add(id string, v []float32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if row, ok := s.rows[id]; ok {
		copy(s.data[row*s.dims:], v)
		signCode(v, s.codes[row*s.words:(row+1)*s.words])
		return
	}
	s.rows[id] = len(s.ids)
	s.ids = append(s.ids, id)
	s.data = append(s.data, v...)
	code := make([]uint64, s.words)
	signCode(v, code)
	s.codes = append(s.codes, code...)
}

// remove turns rows into tombstones, compacting when a quarter is dead.
func (s *vectorSet) remove(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if row, ok := s.rows[id]; ok {
			delete(s.rows, id)
			s.ids[row] = ""
			s.dead++
		}
	}
	if s.dead > 1024 && s.dead*4 > len(s.ids) {
		s.compactLocked()
	}
}

func (s *vectorSet) compactLocked() {
	w := 0
	for r, id := range s.ids {
		if id == "" {
			continue
		}
		if w != r {
			s.ids[w] = id
			copy(s.data[w*s.dims:(w+1)*s.dims], s.data[r*s.dims:(r+1)*s.dims])
			copy(s.codes[w*s.words:(w+1)*s.words], s.codes[r*s.words:(r+1)*s.words])
		}
		s.rows[id] = w
		w++
	}
	clear(s.ids[w:])
	s.ids, s.data, s.codes = s.ids[:w], s.data[:w*s.dims], s.codes[:w*s.words]
	s.dead = 0
}

func (s *vectorSet) has(id string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.rows[id]
	return ok
}

// size is the number of live vectors.
func (s *vectorSet) size() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.rows)
}

// shrink drops spare capacity when much was left behind.
func (s *vectorSet) shrink() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cap(s.data) > len(s.data)+len(s.data)/4 {
		s.ids = slices.Clone(s.ids)
		s.data = slices.Clone(s.data)
		s.codes = slices.Clone(s.codes)
	}
}

// reserve makes room for n more rows so that adding them does not copy
// the slab again and again.
func (s *vectorSet) reserve(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = slices.Grow(s.ids, n)
	s.data = slices.Grow(s.data, n*s.dims)
	s.codes = slices.Grow(s.codes, n*s.words)
}
