package retriever

import (
	"context"
	"errors"
	"fmt"
)

// embedBatchChunks is how many chunks are read and embedded at a time.
const embedBatchChunks = 256

// embedScope says whose chunks an ingest embeds: every document (a
// refresh), the documents under the given roots, or the given documents.
type embedScope struct {
	all   bool
	roots []string
	docs  []string
}

// embedMissing computes the vectors of the scope's committed chunks that
// lack one, and counts those left without. A failure is recorded in the
// report; the text stays searchable and the next ingest tries again.
func (ix *Index) embedMissing(ctx context.Context, t *tally, scope embedScope) {
	if ix.emb == nil {
		return
	}
	defer func() { t.report.Unembedded = max(0, int(ix.bm25.committedChunks())-ix.vec.size()) }()
	if note := ix.brk.note(); note != "" && !ix.brk.retryNow(ctx) {
		t.report.EmbedError = note + "; the text is indexed and vectors are computed by a later ingest"
		return
	}
	missing, titles, err := ix.chunksWithoutVectors(scope)
	for start := 0; start < len(missing) && err == nil; start += embedBatchChunks {
		batch := missing[start:min(start+embedBatchChunks, len(missing))]
		err = ix.embedChunks(ctx, batch, titles)
		if err == nil {
			t.report.Embedded += len(batch)
			t.emit(Event{Kind: EventEmbedded, Done: t.report.Embedded, Total: len(missing)})
		}
	}
	if err == nil && len(missing) > 0 {
		err = ix.vec.sync()
	}
	if err != nil {
		if ctx.Err() == nil && !errors.As(err, new(*DimensionError)) {
			ix.brk.trip(err)
		}
		t.report.EmbedError = err.Error()
		ix.log.Warn("index: vectors not computed; the text is indexed and the next ingest tries again", "err", err)
	}
}

// chunksWithoutVectors lists the scope's committed chunk IDs with no
// vector, and the title of each document involved.
func (ix *Index) chunksWithoutVectors(scope embedScope) ([]string, map[string]string, error) {
	var ids []string
	titles := map[string]string{}
	take := func(rec *docRecord) {
		if rec == nil || rec.State != stateCommitted {
			return
		}
		for _, id := range versionChunkIDs(rec.Path, rec.Committed) {
			if !ix.vec.has(id) {
				ids = append(ids, id)
				titles[rec.Path] = rec.Committed.Title
			}
		}
	}
	if scope.all {
		return ids, titles, eachDoc(ix.db, "", func(rec *docRecord) error { take(rec); return nil })
	}
	for _, root := range scope.roots {
		err := eachDoc(ix.db, root, func(rec *docRecord) error {
			if isUnder(rec.Path, root) {
				take(rec)
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	for _, path := range scope.docs {
		rec, err := loadDoc(ix.db, path)
		if err != nil {
			return nil, nil, err
		}
		take(rec)
	}
	return ids, titles, nil
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
	for _, v := range vecs {
		if len(v) != ix.emb.Dimensions() {
			return &DimensionError{Model: ix.emb.Model(), Got: len(v), Want: ix.emb.Dimensions()}
		}
		normalize(v)
	}
	return ix.storeVectors(ix.vec, ids, vecs, true)
}
