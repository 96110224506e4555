package retriever

import (
	"context"
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2/search"
	"github.com/dgraph-io/badger/v4"
)

// bm25Totals are the corpus statistics BM25 needs: how many chunks are
// committed and how many analysed tokens their contents hold. Bleve would
// otherwise estimate the average length from its term dictionaries, a
// figure that depends on how the segments happened to be cut. The totals
// are the sums over the committed versions in Badger (each version records
// its token count), so they persist with the records and always describe
// what reconcile makes Bleve hold.
type bm25Totals struct {
	mu     sync.Mutex
	chunks int64
	tokens int64
}

func (b *bm25Totals) set(chunks, tokens int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.chunks, b.tokens = chunks, tokens
}

// replace accounts for a version taking the place of another (either nil).
func (b *bm25Totals) replace(old, next *version) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if old != nil {
		b.chunks -= int64(old.Chunks)
		b.tokens -= old.Tokens
	}
	if next != nil {
		b.chunks += int64(next.Chunks)
		b.tokens += next.Tokens
	}
}

// fieldComposite is the field Bleve names when it folds the term
// searchers of an unscored disjunction (the path prefix filter over
// several paths) into one reader. That reader asks for BM25 statistics
// too, and fails without an entry here; it scores nothing, so the figure
// is never used.
const fieldComposite = "*"

// withStats returns ctx carrying the statistics for Bleve's BM25 scorer,
// or ctx unchanged while the index is empty.
func (b *bm25Totals) withStats(ctx context.Context) context.Context {
	b.mu.Lock()
	chunks, tokens := b.chunks, b.tokens
	b.mu.Unlock()
	if chunks <= 0 {
		return ctx
	}
	stats := &search.BM25Stats{
		DocCount: float64(chunks),
		FieldCardinality: map[string]int{
			fieldContents:  int(max(tokens, 1)),
			fieldPath:      int(chunks), // one keyword token per chunk
			fieldComposite: int(chunks),
		},
	}
	return context.WithValue(ctx, search.BM25StatsKey, stats)
}

// loadBM25Totals sums the committed versions, first counting the tokens
// of versions written before token counts were recorded.
func (ix *Index) loadBM25Totals() error {
	var legacy []*docRecord
	var chunks, tokens int64
	err := eachDoc(ix.db, "", func(rec *docRecord) error {
		v := rec.Committed
		if v == nil || rec.State == stateDeleting {
			return nil
		}
		if v.Tokens == 0 && v.Chunks > 0 {
			legacy = append(legacy, rec)
			return nil
		}
		chunks, tokens = chunks+int64(v.Chunks), tokens+v.Tokens
		return nil
	})
	if err != nil {
		return fmt.Errorf("bm25 statistics: %w", err)
	}
	for _, rec := range legacy {
		if err := ix.countVersionTokens(rec); err != nil {
			return fmt.Errorf("bm25 statistics: %s: %w", rec.Path, err)
		}
		chunks, tokens = chunks+int64(rec.Committed.Chunks), tokens+rec.Committed.Tokens
	}
	ix.bm25.set(chunks, tokens)
	return nil
}

// countVersionTokens fills in and stores the token count of a committed
// version from its chunks.
func (ix *Index) countVersionTokens(rec *docRecord) error {
	chunks, err := readChunks(ix.db, versionChunkIDs(rec.Path, rec.Committed))
	if err != nil {
		return err
	}
	rec.Committed.Tokens = ix.ft.countTokens(rec.Committed.Title, chunks)
	return ix.db.Update(func(txn *badger.Txn) error { return setDoc(txn, rec) })
}

// countTokens is the number of analysed tokens Bleve indexes for chunks
// of a document with this title.
func (f *fulltext) countTokens(title string, chunks []chunkRecord) int64 {
	var n int64
	for _, c := range chunks {
		n += int64(len(f.analyzer.Analyze([]byte(chunkContents(title, c.Heading, c.Text)))))
	}
	return n
}

// committedChunks is the number of committed chunks.
func (b *bm25Totals) committedChunks() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.chunks
}
