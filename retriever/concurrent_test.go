package retriever

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestSearchDuringIngest searches while an ingest and a re-ingest of
// changed files run. Every hit must be a committed chunk whose offsets
// and text match a version of the file that was written.
func TestSearchDuringIngest(t *testing.T) {
	src := t.TempDir()
	const files = 150
	write := func(version int) {
		for i := range files {
			body := fmt.Sprintf("# Note %d\n\nshared marmot text, version v%d of file %d.\n", i, version, i)
			if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("n%03d.md", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(1)
	ix := openIndex(t, Options{Embedder: &hashEmbedder{model: "hash", dims: 32}})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for range 2 {
		wg.Go(func() {
			for ctx.Err() == nil {
				res, err := ix.Search(context.Background(), Query{Text: "marmot version", K: 50})
				if err != nil {
					errs <- err
					return
				}
				for _, h := range res.Hits {
					if err := checkHit(h); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	ingestPaths(t, ix, src)
	write(2)
	ingestPaths(t, ix, src)
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := assertConsistent(t, ix)
	if st.Documents != files || st.Vectors != files {
		t.Errorf("status: %+v", st)
	}
}

func checkHit(h Hit) error {
	if h.Start >= h.End || !strings.Contains(h.Snippet, "marmot") {
		return fmt.Errorf("hit %s: offsets [%d,%d), snippet %q", h.ChunkID, h.Start, h.End, h.Snippet)
	}
	var n int
	if _, err := fmt.Sscanf(filepath.Base(h.Path), "n%03d.md", &n); err != nil {
		return fmt.Errorf("hit %s: unexpected path", h.ChunkID)
	}
	if !strings.Contains(h.Snippet, fmt.Sprintf("v1 of file %d.", n)) && !strings.Contains(h.Snippet, fmt.Sprintf("v2 of file %d.", n)) {
		return fmt.Errorf("hit %s: snippet from no written version: %q", h.ChunkID, h.Snippet)
	}
	return nil
}
