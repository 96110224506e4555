package retriever

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// Status describes an index.
type Status struct {
	Dir       string `json:"dir"`
	Documents int    `json:"documents"`
	Chunks    int    `json:"chunks"`
	// Unsettled counts documents with a version being staged or removed.
	Unsettled int      `json:"unsettled"`
	DiskBytes int64    `json:"disk_bytes"`
	Roots     []string `json:"roots"`
	// Excluded lists paths removed from under a root, left out of its
	// refreshes until added again by name.
	Excluded []string `json:"excluded,omitempty"`
	Scoring  string   `json:"scoring"`
	// Embedder is "<model>@<dims>" when configured, else empty: BM25 only.
	Embedder string `json:"embedder,omitempty"`
	// StoredEmbedder is the model the stored vectors came from.
	StoredEmbedder string `json:"stored_embedder,omitempty"`
	Vectors        int    `json:"vectors"`
}

// Status counts documents, chunks and vectors and measures the disk use.
func (ix *Index) Status() (Status, error) {
	st := Status{Dir: ix.dir, Scoring: "bm25", Embedder: ix.EmbedderName()}
	err := eachDoc(ix.db, "", func(rec *docRecord) error {
		if rec.Committed != nil && rec.State != stateDeleting {
			st.Documents++
			st.Chunks += rec.Committed.Chunks
		}
		if rec.State != stateCommitted {
			st.Unsettled++
		}
		return nil
	})
	if err != nil {
		return st, fmt.Errorf("status: %w", err)
	}
	if st.Roots, err = ix.Roots(); err != nil {
		return st, err
	}
	if st.Excluded, err = ix.Excluded(); err != nil {
		return st, err
	}
	if st.StoredEmbedder, err = ix.storedEmbedder(); err != nil {
		return st, err
	}
	if ix.vec != nil {
		st.Vectors = ix.vec.size()
	} else if err := eachKey(ix.db, prefixVector, false, func(string, []byte) error { st.Vectors++; return nil }); err != nil {
		return st, fmt.Errorf("status: count vectors: %w", err)
	}
	if st.Vectors == 0 {
		st.StoredEmbedder = "" // a stamp with no vector behind it names nothing
	}
	st.DiskBytes = diskUsage(ix.dir)
	return st, nil
}

// diskUsage sums the disk space taken by the files under dir.
func diskUsage(dir string) int64 {
	var total int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += allocatedBytes(info)
			}
		}
		return nil
	})
	return total
}

// Roots lists the files and folders added with IngestPaths.
func (ix *Index) Roots() ([]string, error) {
	var roots []string
	err := eachKey(ix.db, prefixRoot, false, func(root string, _ []byte) error {
		roots = append(roots, root)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list roots: %w", err)
	}
	return roots, nil
}

// DocInfo describes one indexed document.
type DocInfo struct {
	Path      string    `json:"path"`
	Title     string    `json:"title"`
	Kind      string    `json:"kind"`
	Chunks    int       `json:"chunks"`
	Bytes     int64     `json:"bytes"`
	IndexedAt time.Time `json:"indexed_at"`
}

// List returns the committed documents whose path starts with prefix.
func (ix *Index) List(prefix string) ([]DocInfo, error) {
	var out []DocInfo
	err := eachDoc(ix.db, prefix, func(rec *docRecord) error {
		if v := rec.Committed; v != nil && rec.State != stateDeleting {
			out = append(out, DocInfo{Path: rec.Path, Title: v.Title, Kind: v.Kind, Chunks: v.Chunks, Bytes: v.Bytes, IndexedAt: v.IndexedAt})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list documents: %w", err)
	}
	return out, nil
}

// ErrNotIndexed is returned by Remove for a path the index knows nothing
// of: no document, root or excluded path at or under it, and no root
// above it.
var ErrNotIndexed = errors.New("not in the index: no indexed file, folder or document is at or under it")

// Remove drops path (a file, a folder, or a Document path) and everything
// under it from the index, and forgets it and the roots under it. A path
// below another root is recorded as excluded (see Excluded), so that
// refreshing that root leaves it out. It returns the number of documents
// removed, and ErrNotIndexed when the index knew nothing of path.
func (ix *Index) Remove(ctx context.Context, path string) (int, error) {
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	if filepath.IsAbs(path) {
		path = filepath.Clean(path)
	}
	recs, err := ix.docsUnder(path)
	if err == nil && len(recs) == 0 && !filepath.IsAbs(path) {
		if abs, absErr := filepath.Abs(path); absErr == nil {
			path = abs
			recs, err = ix.docsUnder(path)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("remove %s: %w", path, err)
	}
	forgot, err := ix.forgetRoots(path)
	if err != nil {
		return 0, err
	}
	excluded, err := ix.omit(path)
	if err != nil {
		return 0, err
	}
	if len(recs) == 0 && forgot == 0 && !excluded {
		return 0, fmt.Errorf("remove %s: %w", path, ErrNotIndexed)
	}
	for start := 0; start < len(recs); start += bleveBatchChunks {
		if err := ctx.Err(); err != nil {
			return start, err
		}
		if err := ix.removeDocs(recs[start:min(start+bleveBatchChunks, len(recs))]); err != nil {
			return start, err
		}
	}
	collectGarbage(ix.db)
	return len(recs), nil
}

// docsUnder lists the records of path and of the documents below it.
func (ix *Index) docsUnder(path string) ([]*docRecord, error) {
	var recs []*docRecord
	err := eachDoc(ix.db, path, func(rec *docRecord) error {
		if isUnder(rec.Path, path) {
			recs = append(recs, rec)
		}
		return nil
	})
	return recs, err
}

// forgetRoots drops the roots at or under path and says how many.
func (ix *Index) forgetRoots(path string) (int, error) {
	roots, err := ix.Roots()
	if err != nil {
		return 0, err
	}
	roots = slices.DeleteFunc(roots, func(r string) bool { return !isUnder(r, path) })
	return len(roots), updateEach(ix.db, roots, func(txn *badger.Txn, root string) error { return txn.Delete(rootKey(root)) })
}
