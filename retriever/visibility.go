package retriever

import (
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// visibility answers, for one search, whether a chunk belongs to the
// committed version of its document. It reads one Badger snapshot, so a
// record and the chunks it lists always agree; records are read once per
// document.
type visibility struct {
	mu   sync.Mutex
	txn  *badger.Txn
	docs map[string]*docRecord
}

func newVisibility(db *badger.DB) *visibility {
	return &visibility{txn: db.NewTransaction(false), docs: map[string]*docRecord{}}
}

func (v *visibility) close() { v.txn.Discard() }

func (v *visibility) record(path string) *docRecord {
	if rec, ok := v.docs[path]; ok {
		return rec
	}
	rec, err := getDoc(v.txn, path)
	if err != nil {
		rec = nil
	}
	v.docs[path] = rec
	return rec
}

// visible reports whether the chunk is part of a committed version that
// is not being removed.
func (v *visibility) visible(id string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, ok := v.visibleLocked(id)
	return ok
}

func (v *visibility) visibleLocked(id string) (*docRecord, bool) {
	ref, err := parseChunkID(id)
	if err != nil {
		return nil, false
	}
	rec := v.record(ref.Path)
	gen := rec.visibleGen()
	if gen == 0 || gen != ref.Gen || ref.Ord >= rec.Committed.Chunks {
		return nil, false
	}
	return rec, true
}

// chunk returns the record and stored chunk of a visible chunk.
func (v *visibility) chunk(id string) (*docRecord, chunkRecord, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	rec, ok := v.visibleLocked(id)
	if !ok {
		return nil, chunkRecord{}, false
	}
	item, err := v.txn.Get(chunkKey(id))
	if err != nil {
		return nil, chunkRecord{}, false
	}
	var c chunkRecord
	if err := item.Value(func(b []byte) error {
		c, err = decodeChunk(b)
		return err
	}); err != nil {
		return nil, chunkRecord{}, false
	}
	return rec, c, true
}
