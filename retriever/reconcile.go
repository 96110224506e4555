package retriever

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dgraph-io/badger/v4"
)

// reconcile brings Badger and Bleve back into agreement after whatever
// the last process left: unfinished versions are committed, unfinished
// removals completed, and, after an interrupted ingest or when the chunk
// counts differ, every stray key and every stray Bleve document is swept.
// It returns the generations of the documents, as settled.
func (ix *Index) reconcile() (generations, error) {
	dirty, err := hasKey(ix.db, keyDirty)
	if err != nil {
		return nil, err
	}
	if err := ix.finishUnsettled(); err != nil {
		return nil, err
	}
	gens, err := loadGenerations(ix.db)
	if err != nil {
		return nil, err
	}
	if dirty {
		if err := ix.sweepBadger(gens); err != nil {
			return nil, err
		}
	}
	inBleve, err := ix.ft.count()
	if err != nil {
		return nil, fmt.Errorf("count full-text documents: %w", err)
	}
	if dirty || inBleve != uint64(gens.committedChunks()) {
		if err := ix.sweepFulltext(gens); err != nil {
			return nil, err
		}
	}
	return gens, setFlag(ix.db, keyDirty, false)
}

// finishUnsettled completes every record that is not committed.
func (ix *Index) finishUnsettled() error {
	var paths []string
	err := eachKey(ix.db, prefixState, false, func(path string, _ []byte) error {
		paths = append(paths, path)
		return nil
	})
	if err != nil {
		return fmt.Errorf("list unsettled documents: %w", err)
	}
	for _, path := range paths {
		rec, err := loadDoc(ix.db, path)
		if err != nil {
			return err
		}
		if err := ix.settle(path, rec); err != nil {
			return fmt.Errorf("settle %s: %w", path, err)
		}
	}
	if len(paths) > 0 {
		ix.log.Info("index: finished interrupted work", "documents", len(paths))
	}
	return nil
}

// settle finishes one record left pending or deleting.
func (ix *Index) settle(path string, rec *docRecord) error {
	switch {
	case rec == nil:
		return ix.db.Update(func(txn *badger.Txn) error { return txn.Delete(stateKey(path)) })
	case rec.State == stateDeleting:
		return ix.finishRemoval([]*docRecord{rec})
	case rec.State == statePending && rec.Pending != nil:
		return ix.redoPending(rec)
	default:
		rec.State, rec.Pending = stateCommitted, nil
		return ix.db.Update(func(txn *badger.Txn) error { return setDoc(txn, rec) })
	}
}

// redoPending indexes a staged version from the chunks in Badger and
// commits it. A version whose chunks are not all there is dropped; the
// next ingest reads the file again.
func (ix *Index) redoPending(rec *docRecord) error {
	pendingIDs := versionChunkIDs(rec.Path, rec.Pending)
	chunks, err := readChunks(ix.db, pendingIDs)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return ix.dropPending(rec, pendingIDs)
	}
	if err != nil {
		return err
	}
	docs := []preparedDoc{{path: rec.Path, chunks: chunks}}
	if err := ix.indexPending([]*docRecord{rec}, docs); err != nil {
		return err
	}
	return ix.finishPending([]*docRecord{rec})
}

// dropPending forgets a staged version, keeping the committed one if any.
func (ix *Index) dropPending(rec *docRecord, pendingIDs []string) error {
	if err := ix.ft.apply(pendingIDs, nil); err != nil {
		return err
	}
	if err := deleteKeys(ix.db, chunkAndVectorKeys(pendingIDs)); err != nil {
		return err
	}
	return ix.db.Update(func(txn *badger.Txn) error {
		if rec.Committed == nil {
			return dropDoc(txn, rec.Path)
		}
		rec.Pending, rec.State = nil, stateCommitted
		return setDoc(txn, rec)
	})
}

// generations maps each document path to its committed generation and
// chunk count, and its pending generation.
type generations map[string]docGens

type docGens struct {
	committed, pending uint32
	chunks             int
}

func loadGenerations(db *badger.DB) (generations, error) {
	gens := generations{}
	err := eachDoc(db, "", func(rec *docRecord) error {
		var g docGens
		if rec.Committed != nil {
			g.committed, g.chunks = rec.Committed.Gen, rec.Committed.Chunks
		}
		if rec.Pending != nil {
			g.pending = rec.Pending.Gen
		}
		gens[rec.Path] = g
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load document records: %w", err)
	}
	return gens, nil
}

func (g generations) committedChunks() int {
	n := 0
	for _, d := range g {
		n += d.chunks
	}
	return n
}

// owns reports whether a chunk ID belongs to a live version.
func (g generations) owns(id string) bool {
	ref, err := parseChunkID(id)
	if err != nil {
		return false
	}
	d, ok := g[ref.Path]
	return ok && ref.Gen != 0 && (ref.Gen == d.committed || ref.Gen == d.pending)
}

// sweepBadger deletes chunks and vectors of versions no record points to.
func (ix *Index) sweepBadger(gens generations) error {
	var stray [][]byte
	for _, prefix := range []string{prefixChunk, prefixVector, prefixCode} {
		err := eachKey(ix.db, prefix, false, func(id string, _ []byte) error {
			if !gens.owns(id) {
				stray = append(stray, []byte(prefix+id))
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("sweep stored chunks: %w", err)
		}
	}
	if len(stray) > 0 {
		ix.log.Info("index: dropping stray chunk keys", "keys", len(stray))
	}
	return deleteKeys(ix.db, stray)
}

// sweepFulltext makes Bleve hold exactly the committed chunks: strays are
// deleted, missing chunks are indexed again from Badger.
func (ix *Index) sweepFulltext(gens generations) error {
	have, err := ix.ft.ids()
	if err != nil {
		return err
	}
	seen := make(map[string]bool, len(have))
	var stray []string
	for _, id := range have {
		ref, err := parseChunkID(id)
		if err != nil || gens[ref.Path].committed != ref.Gen || ref.Gen == 0 || ref.Ord >= gens[ref.Path].chunks {
			stray = append(stray, id)
			continue
		}
		seen[id] = true
	}
	if err := ix.ft.apply(stray, nil); err != nil {
		return err
	}
	missing, err := ix.missingFtDocs(gens, seen)
	if err != nil {
		return err
	}
	if len(stray)+len(missing) > 0 {
		ix.log.Info("index: repaired full-text index", "removed", len(stray), "added", len(missing))
	}
	for start := 0; start < len(missing); start += bleveBatchChunks {
		if err := ix.ft.apply(nil, missing[start:min(start+bleveBatchChunks, len(missing))]); err != nil {
			return err
		}
	}
	return nil
}

// missingFtDocs rebuilds the Bleve documents of committed chunks not seen.
func (ix *Index) missingFtDocs(gens generations, seen map[string]bool) ([]ftDoc, error) {
	var out []ftDoc
	for path, g := range gens {
		if g.committed == 0 {
			continue
		}
		var ids []string
		for ord := range g.chunks {
			if id := chunkIDOf(path, g.committed, ord); !seen[id] {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		rec, err := loadDoc(ix.db, path)
		if err != nil || rec == nil || rec.Committed == nil {
			return nil, fmt.Errorf("reload %s: record vanished: %w", path, err)
		}
		chunks, err := readChunks(ix.db, ids)
		if err != nil {
			return nil, err
		}
		for i, c := range chunks {
			out = append(out, ftDoc{id: ids[i], path: path, contents: chunkContents(rec.Committed.Title, c.Heading, c.Text)})
		}
	}
	return out, nil
}

// isUnder reports whether path is root or lies below it; both are clean
// absolute paths of this platform (C:\docs\a.txt lies below C:\docs on
// Windows).
func isUnder(path, root string) bool { return isUnderSep(path, root, filepath.Separator) }

// isUnderSep is isUnder with the platform's separator given.
func isUnderSep(path, root string, sep byte) bool {
	if path == root {
		return true
	}
	if !strings.HasSuffix(root, string(sep)) {
		root += string(sep)
	}
	return strings.HasPrefix(path, root)
}
