package retriever

import (
	"context"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// applyEmbedderStamp compares the configured embedder with the one the
// stored vectors came from. On a change of model or dimension every
// stored vector is dropped; the next ingest embeds the chunks again, so
// vector spaces are never mixed.
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
		if err := ix.db.DropPrefix([]byte(prefixVector)); err != nil {
			return fmt.Errorf("drop vectors of %s: %w", stored, err)
		}
	}
	return ix.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(keyEmbedder), []byte(want)) })
}

// storedEmbedder is the "<model>@<dims>" the stored vectors came from.
func (ix *Index) storedEmbedder() (string, error) {
	var stamp string
	err := ix.db.View(func(txn *badger.Txn) error {
		item, err := txn.Get([]byte(keyEmbedder))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		v, err := item.ValueCopy(nil)
		stamp = string(v)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("read embedder stamp: %w", err)
	}
	return stamp, nil
}

// loadVectors reads the vectors of committed chunks into memory.
func (ix *Index) loadVectors(gens generations) (*vectorSet, error) {
	vs := newVectorSet(ix.emb.Dimensions())
	n := 0
	err := eachKey(ix.db, prefixVector, false, func(string, []byte) error { n++; return nil })
	if err != nil {
		return nil, err
	}
	vs.reserve(n)
	buf := make([]float32, vs.dims)
	err = ix.db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Prefix = []byte(prefixVector)
		it := txn.NewIterator(opts)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			id := string(it.Item().Key()[len(prefixVector):])
			ref, err := parseChunkID(id)
			if err != nil || gens[ref.Path].committed != ref.Gen {
				continue // left by an interrupted ingest; swept on the next dirty open
			}
			if err := it.Item().Value(func(b []byte) error { return decodeVector(b, buf) }); err != nil {
				return fmt.Errorf("vector %s: %w", id, err)
			}
			vs.add(id, buf)
		}
		return nil
	})
	vs.shrink()
	return vs, err
}

// embedBatchChunks is how many chunks are read and embedded at a time.
const embedBatchChunks = 256

// embedMissing computes the vectors of committed chunks that lack one. A
// failure is recorded in the report; the text stays searchable and the
// next ingest tries again.
func (ix *Index) embedMissing(ctx context.Context, t *tally) {
	if ix.emb == nil {
		return
	}
	if note := ix.brk.note(); note != "" && !ix.brk.retryNow(ctx) {
		t.report.EmbedError = note + "; the text is indexed and vectors are computed by a later ingest"
		return
	}
	missing, titles, err := ix.chunksWithoutVectors()
	if err == nil {
		ix.vec.reserve(len(missing))
		for start := 0; start < len(missing) && err == nil; start += embedBatchChunks {
			batch := missing[start:min(start+embedBatchChunks, len(missing))]
			err = ix.embedChunks(ctx, batch, titles)
			if err == nil {
				t.report.Embedded += len(batch)
				t.emit(Event{Kind: EventEmbedded, Done: t.report.Embedded, Total: len(missing)})
			}
		}
	}
	if err != nil {
		if ctx.Err() == nil && !errors.As(err, new(*DimensionError)) {
			ix.brk.trip(err)
		}
		t.report.EmbedError = err.Error()
		ix.log.Warn("index: vectors not computed; the text is indexed and the next ingest tries again", "err", err)
	}
}

// chunksWithoutVectors lists committed chunk IDs with no vector, and the
// title of each document involved.
func (ix *Index) chunksWithoutVectors() ([]string, map[string]string, error) {
	var ids []string
	titles := map[string]string{}
	err := eachDoc(ix.db, "", func(rec *docRecord) error {
		if rec.State != stateCommitted {
			return nil
		}
		for _, id := range versionChunkIDs(rec.Path, rec.Committed) {
			if !ix.vec.has(id) {
				ids = append(ids, id)
				titles[rec.Path] = rec.Committed.Title
			}
		}
		return nil
	})
	return ids, titles, err
}

// embedChunks embeds chunks and stores their vectors.
func (ix *Index) embedChunks(ctx context.Context, ids []string, titles map[string]string) error {
	chunks, err := readChunks(ix.db, ids)
	if err != nil {
		return err
	}
	texts := make([]string, len(ids))
	for i, id := range ids {
		ref, _ := parseChunkID(id)
		texts[i] = chunkContents(titles[ref.Path], chunks[i].Heading, chunks[i].Text)
	}
	vecs, err := ix.emb.Embed(ctx, texts, RoleDocument)
	if err != nil {
		return err
	}
	if len(vecs) != len(ids) {
		return fmt.Errorf("embedder %s: %d vectors for %d chunks", ix.emb.Model(), len(vecs), len(ids))
	}
	wb := ix.db.NewWriteBatch()
	defer wb.Cancel()
	for i, v := range vecs {
		if len(v) != ix.emb.Dimensions() {
			return &DimensionError{Model: ix.emb.Model(), Got: len(v), Want: ix.emb.Dimensions()}
		}
		normalize(v)
		if err := wb.Set(vectorKey(ids[i]), encodeVector(v)); err != nil {
			return fmt.Errorf("store vector: %w", err)
		}
	}
	if err := wb.Flush(); err != nil {
		return fmt.Errorf("store vectors: %w", err)
	}
	for i, v := range vecs {
		ix.vec.add(ids[i], v)
	}
	return nil
}
