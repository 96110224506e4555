package retriever

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// ErrInUse is returned by Open when another process holds the index.
var ErrInUse = errors.New("index is in use by another process")

// Index is an open document index. Its methods are safe for concurrent
// use; ingests and removals are serialised, searches run alongside them.
type Index struct {
	dir string
	db  *badger.DB
	ft  *fulltext
	vec *vectorSet // nil without an embedder
	emb Embedder
	brk *breaker // nil without an embedder
	// replacedEmbedder names the embedder whose vectors Open dropped
	// because another one is configured now.
	replacedEmbedder string
	// recoded counts the vectors Open had to code again from their floats.
	recoded int
	opts    Options
	log     *slog.Logger

	writeMu sync.Mutex // one ingest or removal at a time
	bm25    bm25Totals
	// batchChunks is how many chunks an ingest commits at a time.
	batchChunks int

	// failAfter, when set by a test, is called after each commit stage; an
	// error stops the commit there, as a crash would.
	failAfter func(stage string) error
	// beforeRead, when set by a test, is called just before a file found
	// by the walk is opened.
	beforeRead func(path string)
}

// heldByAnother reports whether Badger refused to open because another
// process holds its lock: it says so in the same words on every system
// ("Cannot acquire directory lock on …" on Unix, "Cannot create lock file
// …" on Windows).
func heldByAnother(err error) bool {
	return strings.Contains(err.Error(), "Another process is using this Badger database")
}

// Open opens the index in dir, creating it when absent, and reconciles it
// with what an interrupted ingest left behind.
func Open(dir string, opts Options) (*Index, error) {
	opts = opts.withDefaults()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open index: %w", err)
	}
	db, err := badger.Open(badgerOptions(filepath.Join(dir, "badger"), opts.Logger))
	if err != nil {
		if heldByAnother(err) {
			return nil, fmt.Errorf("open index %s: %w", dir, ErrInUse)
		}
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	ft, err := openFulltext(filepath.Join(dir, "fulltext"))
	if err != nil {
		_ = db.Close()
		return nil, err
	}
	ix := &Index{dir: dir, db: db, ft: ft, emb: opts.Embedder, opts: opts, log: opts.Logger, batchChunks: bleveBatchChunks}
	if ix.emb != nil {
		ix.brk = newBreaker(ix.emb, opts)
	}
	if err := ix.start(); err != nil {
		_ = ix.Close()
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	return ix, nil
}

// start reconciles the stores and loads the vectors.
func (ix *Index) start() error {
	gens, err := ix.reconcile()
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	if err := ix.loadBM25Totals(); err != nil {
		return err
	}
	if ix.emb == nil {
		return nil
	}
	if err := ix.applyEmbedderStamp(); err != nil {
		return err
	}
	vs, err := ix.loadVectors(gens)
	if err != nil {
		return fmt.Errorf("load vectors: %w", err)
	}
	ix.vec = vs
	return nil
}

// Close stops the embedder prober and closes both stores. Ingests and
// searches must have returned.
func (ix *Index) Close() error {
	if ix.brk != nil {
		ix.brk.close()
	}
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	var errs []error
	if ix.vec != nil {
		errs = append(errs, ix.vec.close())
		ix.vec = nil
	}
	if ix.ft != nil {
		errs = append(errs, ix.ft.close())
	}
	if ix.db != nil {
		errs = append(errs, ix.db.Close())
	}
	ix.ft, ix.db = nil, nil
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}

// Dir is the directory the index lives in.
func (ix *Index) Dir() string { return ix.dir }

// EmbedderName is "<model>@<dims>", or "" without an embedder.
func (ix *Index) EmbedderName() string {
	if ix.emb == nil {
		return ""
	}
	return embedderName(ix.emb)
}

func embedderName(e Embedder) string { return fmt.Sprintf("%s@%d", e.Model(), e.Dimensions()) }
