package retriever

import (
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// writeTree creates files under dir from a map of relative path → content.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// openIndex opens an index in a fresh temporary folder, closed at cleanup.
func openIndex(t *testing.T, opts Options) *Index {
	t.Helper()
	return openIndexAt(t, t.TempDir(), opts)
}

func openIndexAt(t *testing.T, dir string, opts Options) *Index {
	t.Helper()
	ix, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	return ix
}

func ingestPaths(t *testing.T, ix *Index, paths ...string) IngestReport {
	t.Helper()
	rep, err := ix.IngestPaths(context.Background(), paths, IngestOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// searchPaths returns the distinct document paths of a BM25 search, best
// first.
func searchPaths(t *testing.T, ix *Index, q Query) []string {
	t.Helper()
	if q.Mode == ModeAuto {
		q.Mode = ModeBM25
	}
	res, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range res.Hits {
		if !slices.Contains(out, h.Path) {
			out = append(out, h.Path)
		}
	}
	return out
}

// assertConsistent checks the invariants an index must hold after Open:
// nothing unsettled, every Bleve document a chunk of a committed version,
// and as many Bleve documents as committed chunks.
func assertConsistent(t *testing.T, ix *Index) Status {
	t.Helper()
	st, err := ix.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Unsettled != 0 {
		t.Errorf("%d documents unsettled after open", st.Unsettled)
	}
	ids, err := ix.ft.ids()
	if err != nil {
		t.Fatal(err)
	}
	view := newVisibility(ix.db)
	defer view.close()
	for _, id := range ids {
		if !view.visible(id) {
			t.Errorf("full-text index holds %s, which is not a committed chunk", id)
		}
	}
	if len(ids) != st.Chunks {
		t.Errorf("full-text index holds %d chunks, Badger lists %d committed", len(ids), st.Chunks)
	}
	return st
}

// hashEmbedder is a deterministic embedder for tests: each lower-cased
// word adds ±1 to a hashed dimension. Texts sharing words are close.
type hashEmbedder struct {
	model string
	dims  int
	calls atomic.Int64
	fail  atomic.Bool
}

func (h *hashEmbedder) Model() string   { return h.model }
func (h *hashEmbedder) Dimensions() int { return h.dims }

func (h *hashEmbedder) Embed(_ context.Context, texts []string, _ Role) ([][]float32, error) {
	h.calls.Add(1)
	if h.fail.Load() {
		return nil, errFakeDown
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = hashVector(t, h.dims)
	}
	return out, nil
}

var errFakeDown = errors.New("embedding endpoint down")

func hashVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		w = strings.Trim(w, ".,;:!?\"'()")
		if len(w) < 3 {
			continue
		}
		f := fnv.New64a()
		f.Write([]byte(w))
		h := f.Sum64()
		sign := float32(1)
		if h>>63 == 1 {
			sign = -1
		}
		v[h%uint64(dims)] += sign
	}
	normalize(v)
	return v
}

// assertRoots checks the index's recorded roots, in any order.
func assertRoots(t *testing.T, ix *Index, want ...string) {
	t.Helper()
	roots, err := ix.Roots()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(roots)
	slices.Sort(want)
	if !slices.Equal(roots, want) {
		t.Errorf("roots %q, want %q", roots, want)
	}
}
