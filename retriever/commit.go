package retriever

import (
	"fmt"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// preparedDoc is a new version of a document, extracted and chunked, ready
// to be committed.
type preparedDoc struct {
	path   string
	ver    version
	chunks []chunkRecord
}

// Stages of the commit state machine, named for the fault hook.
const (
	stageStaged  = "staged"  // chunks and pending records are in Badger
	stageIndexed = "indexed" // Bleve holds the new chunks
	stageMarked  = "marked"  // records to remove are marked deleting
	stageCoded   = "coded"   // vector codes are in the code file, not yet in Badger
)

// commitGroup takes documents through pending → indexed → committed:
//  1. their chunks are written under a fresh generation, then their records
//     are marked pending (search keeps serving the previous version);
//  2. one Bleve batch removes the previous versions' chunks and adds the new;
//  3. one Badger transaction per record flips it to committed, after which
//     the previous versions' chunks and vectors are deleted.
//
// A crash anywhere leaves records that Open knows how to finish.
func (ix *Index) commitGroup(docs []preparedDoc) ([]*docRecord, error) {
	recs, err := ix.stage(docs)
	if err != nil {
		return nil, err
	}
	if err := ix.fault(stageStaged); err != nil {
		return nil, err
	}
	if err := ix.indexPending(recs, docs); err != nil {
		return nil, err
	}
	if err := ix.fault(stageIndexed); err != nil {
		return nil, err
	}
	if err := ix.finishPending(recs); err != nil {
		return nil, err
	}
	return recs, nil
}

// stage writes the chunks of each document, then its pending record.
func (ix *Index) stage(docs []preparedDoc) ([]*docRecord, error) {
	recs := make([]*docRecord, len(docs))
	var writes []chunkWrite
	err := ix.db.View(func(txn *badger.Txn) error {
		for i := range docs {
			d := &docs[i]
			rec, err := getDoc(txn, d.path)
			if err != nil {
				return err
			}
			if rec == nil {
				rec = &docRecord{Path: d.path}
			}
			d.ver.Gen = rec.nextGen()
			d.ver.Chunks = len(d.chunks)
			d.ver.IndexedAt = time.Now().UTC()
			ver := d.ver
			rec.Pending, rec.State = &ver, statePending
			recs[i] = rec
			for ord, c := range d.chunks {
				writes = append(writes, chunkWrite{id: chunkIDOf(d.path, ver.Gen, ord), chunk: c})
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	if err := writeChunks(ix.db, writes); err != nil {
		return nil, fmt.Errorf("stage: %w", err)
	}
	if err := updateEach(ix.db, recs, setDoc); err != nil {
		return nil, fmt.Errorf("stage: mark pending: %w", err)
	}
	return recs, nil
}

// indexPending replaces, in one Bleve batch, the committed chunks of each
// record with its pending chunks.
func (ix *Index) indexPending(recs []*docRecord, docs []preparedDoc) error {
	var deletes []string
	var adds []ftDoc
	for i, rec := range recs {
		deletes = append(deletes, versionChunkIDs(rec.Path, rec.Committed)...)
		adds = append(adds, pendingFtDocs(rec, docs[i].chunks)...)
	}
	if err := ix.ft.apply(deletes, adds); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	return nil
}

// pendingFtDocs is what Bleve indexes for a record's pending version.
func pendingFtDocs(rec *docRecord, chunks []chunkRecord) []ftDoc {
	out := make([]ftDoc, len(chunks))
	for ord, c := range chunks {
		out[ord] = ftDoc{
			id:       chunkIDOf(rec.Path, rec.Pending.Gen, ord),
			path:     rec.Path,
			contents: chunkContents(rec.Pending.Title, c.Heading, c.Text),
		}
	}
	return out
}

// finishPending makes each pending version the committed one, then drops
// the chunks and vectors of the versions they replace.
func (ix *Index) finishPending(recs []*docRecord) error {
	var stale []string
	err := updateEach(ix.db, recs, func(txn *badger.Txn, rec *docRecord) error {
		next := *rec
		next.Committed, next.Pending, next.State = rec.Pending, nil, stateCommitted
		if err := setDoc(txn, &next); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	for _, rec := range recs {
		stale = append(stale, versionChunkIDs(rec.Path, rec.Committed)...)
		ix.bm25.replace(rec.Committed, rec.Pending)
		rec.Committed, rec.Pending, rec.State = rec.Pending, nil, stateCommitted
	}
	ix.dropVectors(stale)
	if err := deleteKeys(ix.db, chunkAndVectorKeys(stale)); err != nil {
		return fmt.Errorf("commit: drop replaced chunks: %w", err)
	}
	return nil
}

// removeDocs deletes documents: mark deleting, drop from Bleve, drop from
// Badger. Open finishes a removal that a crash interrupted.
func (ix *Index) removeDocs(recs []*docRecord) error {
	if len(recs) == 0 {
		return nil
	}
	for _, rec := range recs {
		rec.State = stateDeleting
	}
	if err := updateEach(ix.db, recs, setDoc); err != nil {
		return fmt.Errorf("remove: mark deleting: %w", err)
	}
	if err := ix.fault(stageMarked); err != nil {
		return err
	}
	return ix.finishRemoval(recs)
}

// finishRemoval drops records already marked deleting.
func (ix *Index) finishRemoval(recs []*docRecord) error {
	var ids []string
	for _, rec := range recs {
		ids = append(ids, versionChunkIDs(rec.Path, rec.Committed)...)
		ids = append(ids, versionChunkIDs(rec.Path, rec.Pending)...)
	}
	if err := ix.ft.apply(ids, nil); err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	ix.dropVectors(ids)
	if err := deleteKeys(ix.db, chunkAndVectorKeys(ids)); err != nil {
		return fmt.Errorf("remove: %w", err)
	}
	err := updateEach(ix.db, recs, func(txn *badger.Txn, rec *docRecord) error { return dropDoc(txn, rec.Path) })
	if err != nil {
		return fmt.Errorf("remove: drop records: %w", err)
	}
	for _, rec := range recs {
		ix.bm25.replace(rec.Committed, nil)
	}
	return nil
}

// fault lets tests stop a commit between stages, as a crash would.
func (ix *Index) fault(stage string) error {
	if ix.failAfter == nil {
		return nil
	}
	return ix.failAfter(stage)
}

// dropVectors forgets the in-memory vectors of chunks.
func (ix *Index) dropVectors(ids []string) {
	if ix.vec != nil {
		ix.vec.remove(ids)
	}
}
