package retriever

import (
	"fmt"
	"slices"
	"sync"
)

// vectorSet is the compact side of the committed chunk vectors: one int8
// code per chunk in a memory-mapped codeFile, and on the heap only the
// chunk ID and the code's unit per row. The float32 vectors stay in
// Badger and are read back only to re-rank the best candidates.
type vectorSet struct {
	mu     sync.RWMutex
	dims   int
	codes  *codeFile
	ids    []string  // per row; "" marks a free row
	scales []float32 // per row: the unit of its code
	rows   map[string]int
	free   []int  // free rows, taken from the end
	taken  []bool // while loading: rows claimed by a code entry
}

// placement is where a chunk's code went: its row and unit, stored in
// Badger beside the float vector.
type placement struct {
	id    string
	row   int
	scale float32
}

func newVectorSet(dims int, codes *codeFile) *vectorSet {
	return &vectorSet{dims: dims, codes: codes, rows: map[string]int{}, taken: make([]bool, codes.rows)}
}

// load records a code already on disk, at open.
func (s *vectorSet) load(id string, row int, scale float32) bool {
	if row < 0 || row >= s.codes.rows || s.taken[row] {
		return false
	}
	s.taken[row] = true
	s.rows[id] = row
	for len(s.ids) <= row {
		s.ids = append(s.ids, "")
		s.scales = append(s.scales, 0)
	}
	s.ids[row], s.scales[row] = id, scale
	return true
}

// loaded ends the loading: every row of the file not taken is free.
func (s *vectorSet) loaded() {
	s.ids = slices.Clip(s.ids)
	s.scales = slices.Clip(s.scales)
	for r := s.codes.rows - 1; r >= 0; r-- {
		if !s.taken[r] {
			s.free = append(s.free, r)
		}
	}
	s.taken = nil
}

// place writes the codes of normalised vectors into free rows (a chunk
// that has a row keeps it). The rows are reserved but not searched until
// publish; release gives them back when storing the floats failed.
func (s *vectorSet) place(ids []string, vecs [][]float32) ([]placement, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]placement, len(ids))
	code := make([]byte, s.dims)
	for i, id := range ids {
		row, ok := s.rows[id]
		if !ok {
			var err error
			if row, err = s.takeRow(); err != nil {
				s.releaseLocked(out[:i])
				return nil, err
			}
		}
		scale := quantize(vecs[i], code)
		if err := s.codes.write(row, code); err != nil {
			if !ok {
				s.free = append(s.free, row)
			}
			s.releaseLocked(out[:i])
			return nil, err
		}
		out[i] = placement{id: id, row: row, scale: scale}
	}
	return out, nil
}

// takeRow pops a free row, growing the file when none is left.
func (s *vectorSet) takeRow() (int, error) {
	if len(s.free) == 0 {
		old := s.codes.rows
		if err := s.codes.grow(old + 1); err != nil {
			return 0, fmt.Errorf("store vector codes: %w", err)
		}
		for r := s.codes.rows - 1; r >= old; r-- {
			s.free = append(s.free, r)
		}
	}
	row := s.free[len(s.free)-1]
	s.free = s.free[:len(s.free)-1]
	return row, nil
}

// release returns reserved rows of chunks not published.
func (s *vectorSet) release(ps []placement) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.releaseLocked(ps)
}

func (s *vectorSet) releaseLocked(ps []placement) {
	for _, p := range ps {
		if _, ok := s.rows[p.id]; !ok && p.id != "" {
			s.free = append(s.free, p.row)
		}
	}
}

// publish makes placed codes searchable.
func (s *vectorSet) publish(ps []placement) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range ps {
		for len(s.ids) <= p.row {
			s.ids = append(s.ids, "")
			s.scales = append(s.scales, 0)
		}
		s.ids[p.row], s.scales[p.row] = p.id, p.scale
		s.rows[p.id] = p.row
	}
}

// remove frees the rows of chunks.
func (s *vectorSet) remove(ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if row, ok := s.rows[id]; ok {
			delete(s.rows, id)
			s.ids[row] = ""
			s.free = append(s.free, row)
		}
	}
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

// reset forgets every code and empties the file.
func (s *vectorSet) reset() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids, s.scales, s.free = nil, nil, nil
	clear(s.rows)
	return s.codes.reset()
}

func (s *vectorSet) sync() error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.codes.sync()
}

func (s *vectorSet) close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.codes.close()
}
