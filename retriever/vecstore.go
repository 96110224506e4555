package retriever

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"

	"github.com/dgraph-io/badger/v4"
)

// codeFileName is the code file's name in the index folder.
const codeFileName = "vectors.i8"

// applyEmbedderStamp compares the configured embedder with the one the
// stored vectors came from. On a change of model or dimension every
// stored vector and code is dropped; the next ingest embeds the chunks
// again, so vector spaces are never mixed.
func (ix *Index) applyEmbedderStamp() error {
	want := embedderName(ix.emb)
	stored, err := ix.storedEmbedder()
	if err != nil {
		return err
	}
	if stored == want {
		return nil
	}
	if stored != "" {
		ix.log.Info("index: embedder changed; vectors will be computed again", "from", stored, "to", want)
		ix.replacedEmbedder = stored
		if err := ix.db.DropPrefix([]byte(prefixVector), []byte(prefixCode)); err != nil {
			return fmt.Errorf("drop vectors of %s: %w", stored, err)
		}
	}
	return ix.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(keyEmbedder), []byte(want)) })
}

// storedEmbedder is the "<model>@<dims>" the stored vectors came from.
func (ix *Index) storedEmbedder() (string, error) {
	stamp, err := getValue(ix.db, keyEmbedder)
	if err != nil {
		return "", fmt.Errorf("read embedder stamp: %w", err)
	}
	return string(stamp), nil
}

// getValue reads a key's value; a missing key reads as nil.
func getValue(db *badger.DB, key string) ([]byte, error) {
	var val []byte
	err := db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(key))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		val, err = item.ValueCopy(nil)
		return err
	})
	return val, err
}

// loadVectors opens the code file and matches it with the committed
// chunks' vectors in Badger: a code is used when its chunk is committed,
// its float vector is stored and its row is sound. A vector without a
// usable code (an older index, a lost or replaced code file, a write cut
// short) is coded again from its floats; a code without a vector is
// dropped. Only keys are read, so the floats stay on disk.
func (ix *Index) loadVectors(gens generations) (*vectorSet, error) {
	dims := ix.emb.Dimensions()
	cf, err := openCodeFile(filepath.Join(ix.dir, codeFileName), dims)
	if err != nil {
		return nil, err
	}
	vs := newVectorSet(dims, cf)
	repair, err := ix.matchCodes(vs, gens)
	if err == nil && len(vs.rows) == 0 && cf.rows > 0 {
		err = ix.resetCodes(cf) // nothing in it is used: give the disk space back
	}
	if err != nil {
		_ = cf.close()
		return nil, err
	}
	vs.loaded()
	if len(repair) > 0 {
		ix.log.Info("index: computing compact vector codes from the stored vectors", "chunks", len(repair))
		ix.recoded = len(repair)
		if err := ix.recode(vs, repair); err != nil {
			_ = cf.close()
			return nil, err
		}
	}
	return vs, nil
}

// matchCodes walks the v/ and q/ keys side by side (both are sorted by
// chunk ID), loads the sound codes into vs and returns the committed
// chunks whose vector lacks one.
func (ix *Index) matchCodes(vs *vectorSet, gens generations) ([]string, error) {
	stamp, err := getValue(ix.db, keyCodes)
	if err != nil {
		return nil, fmt.Errorf("read code file identity: %w", err)
	}
	if string(stamp) != string(vs.codes.id[:]) {
		if err := ix.db.DropPrefix([]byte(prefixCode)); err != nil {
			return nil, fmt.Errorf("drop vector codes: %w", err)
		}
		if err := ix.recordCodeFile(vs.codes); err != nil {
			return nil, err
		}
	}
	var repair []string
	var stray [][]byte
	live := func(id string) bool {
		ref, err := parseChunkID(id)
		return err == nil && ref.Gen != 0 && gens[ref.Path].committed == ref.Gen
	}
	err = ix.db.View(func(txn *badger.Txn) error {
		vi, qi := keyIterator(txn, prefixVector), keyIterator(txn, prefixCode)
		defer vi.Close()
		defer qi.Close()
		vi.Rewind()
		qi.Rewind()
		for vi.Valid() || qi.Valid() {
			vid, qid := iterID(vi, prefixVector), iterID(qi, prefixCode)
			switch {
			case qi.Valid() && (!vi.Valid() || qid < vid):
				stray = append(stray, qi.Item().KeyCopy(nil))
				qi.Next()
			case !qi.Valid() || vid < qid:
				if live(vid) {
					repair = append(repair, vid)
				}
				vi.Next()
			default:
				if live(vid) && !ix.loadCode(vs, vid, qi.Item()) {
					repair = append(repair, vid)
				}
				vi.Next()
				qi.Next()
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("match vector codes: %w", err)
	}
	return repair, deleteKeys(ix.db, stray)
}

// resetCodes empties the code file under a new identity and records it.
func (ix *Index) resetCodes(cf *codeFile) error {
	if err := cf.reset(); err != nil {
		return err
	}
	return ix.recordCodeFile(cf)
}

func (ix *Index) recordCodeFile(cf *codeFile) error {
	if err := ix.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(keyCodes), cf.id[:]) }); err != nil {
		return fmt.Errorf("record code file identity: %w", err)
	}
	return nil
}

func keyIterator(txn *badger.Txn, prefix string) *badger.Iterator {
	opts := badger.DefaultIteratorOptions
	opts.Prefix = []byte(prefix)
	opts.PrefetchValues = false
	return txn.NewIterator(opts)
}

func iterID(it *badger.Iterator, prefix string) string {
	if !it.Valid() {
		return ""
	}
	return string(it.Item().Key()[len(prefix):])
}

// loadCode takes a q/ entry into vs; false when it is not sound.
func (ix *Index) loadCode(vs *vectorSet, id string, item *badger.Item) bool {
	ok := false
	_ = item.Value(func(b []byte) error {
		row, scale, err := decodeCode(b)
		ok = err == nil && vs.load(id, row, scale)
		return nil
	})
	return ok
}

// recode codes stored float vectors again, a batch at a time.
func (ix *Index) recode(vs *vectorSet, ids []string) error {
	for start := 0; start < len(ids); start += embedBatchChunks {
		batch := ids[start:min(start+embedBatchChunks, len(ids))]
		vecs, err := readVectors(ix.db, batch, vs.dims)
		if err != nil {
			return err
		}
		if err := ix.storeVectors(vs, batch, vecs, false); err != nil {
			return err
		}
	}
	return vs.sync()
}

// readVectors reads the float vectors of chunks.
func readVectors(db *badger.DB, ids []string, dims int) ([][]float32, error) {
	out := make([][]float32, len(ids))
	err := db.View(func(txn *badger.Txn) error {
		for i, id := range ids {
			item, err := txn.Get(vectorKey(id))
			if err != nil {
				return fmt.Errorf("read vector %s: %w", id, err)
			}
			out[i] = make([]float32, dims)
			if err := item.Value(func(b []byte) error { return decodeVector(b, out[i]) }); err != nil {
				return fmt.Errorf("vector %s: %w", id, err)
			}
		}
		return nil
	})
	return out, err
}

// storeVectors writes the codes of normalised vectors, then in one batch
// their q/ keys (and, with floats, their v/ keys), then makes them
// searchable. A code written but not recorded is a free row on reopen.
func (ix *Index) storeVectors(vs *vectorSet, ids []string, vecs [][]float32, floats bool) error {
	ps, err := vs.place(ids, vecs)
	if err != nil {
		return err
	}
	if err := ix.fault(stageCoded); err != nil {
		vs.release(ps)
		return err
	}
	wb := ix.db.NewWriteBatch()
	defer wb.Cancel()
	for i, p := range ps {
		if floats {
			if err := wb.Set(vectorKey(p.id), encodeVector(vecs[i])); err != nil {
				vs.release(ps)
				return fmt.Errorf("store vector: %w", err)
			}
		}
		if err := wb.Set(codeKey(p.id), encodeCode(p.row, p.scale)); err != nil {
			vs.release(ps)
			return fmt.Errorf("store vector code: %w", err)
		}
	}
	if err := wb.Flush(); err != nil {
		vs.release(ps)
		return fmt.Errorf("store vectors: %w", err)
	}
	vs.publish(ps)
	return nil
}

func encodeCode(row int, scale float32) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint32(b, uint32(row))
	binary.LittleEndian.PutUint32(b[4:], math.Float32bits(scale))
	return b
}

func decodeCode(b []byte) (int, float32, error) {
	if len(b) != 8 {
		return 0, 0, fmt.Errorf("vector code entry of %d bytes, want 8", len(b))
	}
	return int(binary.LittleEndian.Uint32(b)), math.Float32frombits(binary.LittleEndian.Uint32(b[4:])), nil
}
