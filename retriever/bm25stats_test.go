package retriever

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
)

// writeScoringCorpus writes documents of unequal length drawn from a
// shared vocabulary, so that length normalisation and document
// frequencies matter, and so that the term dictionaries of separately
// written segments overlap (which is what Bleve's own estimate of the
// average length depends on).
func writeScoringCorpus(t *testing.T, dir string) {
	t.Helper()
	words := []string{"heron", "walrus", "lantern", "quarry", "ember", "falcon", "meadow", "cipher", "harbor", "tundra"}
	files := map[string]string{}
	state := uint32(7)
	for i := range 60 {
		var b strings.Builder
		for j := range 20 + (i*37)%200 {
			state = state*1664525 + 1013904223
			if j%9 == 0 {
				b.WriteString(words[(state>>8)%uint32(len(words))] + " ")
			}
			fmt.Fprintf(&b, "v%d ", (state>>12)%600)
		}
		files[fmt.Sprintf("doc%02d.txt", i)] = b.String()
	}
	writeTree(t, dir, files)
}

// scoresByChunk runs queries and maps "query|chunk ID" to the BM25 score.
func scoresByChunk(t *testing.T, ix *Index, queries []string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, q := range queries {
		res, err := ix.Search(context.Background(), Query{Text: q, K: 1000, Mode: ModeBM25, Ungrouped: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			out[q+"|"+h.ChunkID] = h.Score
		}
	}
	return out
}

func TestBM25ScoresIndependentOfBatching(t *testing.T) {
	src := t.TempDir()
	writeScoringCorpus(t, src)
	queries := []string{"heron", "walrus lantern", "quarry ember falcon", "v3 meadow", "cipher harbor tundra"}
	var runs []map[string]float64
	for _, batch := range []int{1, 7, 500} {
		ix := openIndex(t, Options{ChunkBytes: 300})
		ix.batchChunks = batch
		ingestPaths(t, ix, src)
		runs = append(runs, scoresByChunk(t, ix, queries))
	}
	for i, run := range runs[1:] {
		assertSameScores(t, runs[0], run, fmt.Sprintf("batch run %d", i+1))
	}
}

// TestBM25StatsSurviveReopenAndRemoval checks that the statistics follow
// removals and are the same after a reopen as for a fresh ingest.
func TestBM25StatsSurviveReopenAndRemoval(t *testing.T) {
	src := t.TempDir()
	writeScoringCorpus(t, src)
	queries := []string{"heron", "walrus lantern"}
	dir := t.TempDir()
	ix, err := Open(dir, Options{ChunkBytes: 300})
	if err != nil {
		t.Fatal(err)
	}
	ingestPaths(t, ix, src)
	extra := t.TempDir()
	writeScoringCorpus(t, extra)
	ingestPaths(t, ix, extra)
	if _, err := ix.Remove(context.Background(), extra); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	reopened := openIndexAt(t, dir, Options{ChunkBytes: 300})
	fresh := openIndex(t, Options{ChunkBytes: 300})
	ingestPaths(t, fresh, src)
	assertSameScores(t, scoresByChunk(t, fresh, queries), scoresByChunk(t, reopened, queries), "reopened")
}

func assertSameScores(t *testing.T, want, got map[string]float64, name string) {
	t.Helper()
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("%s: %d scored hits, want %d (> 0)", name, len(got), len(want))
	}
	for key, w := range want {
		g, ok := got[key]
		if !ok || math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
			t.Errorf("%s: %s scored %v, want %v", name, key, g, w)
		}
	}
}
