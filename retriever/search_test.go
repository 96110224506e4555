package retriever

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSearchHitsCarryOffsetsAndSnippets(t *testing.T) {
	src := t.TempDir()
	body := "# Care guide\n\nIntro text.\n\n## Feeding\n\nThe hedgehogs were feeding on beetles at night.\n"
	writeTree(t, src, map[string]string{"guide.md": body})
	ix := openIndex(t, Options{ChunkBytes: 64})
	ingestPaths(t, ix, src)
	res, err := ix.Search(context.Background(), Query{Text: "hedgehog feeds", K: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != "bm25" || len(res.Hits) == 0 {
		t.Fatalf("results: %+v", res)
	}
	h := res.Hits[0]
	data, _ := os.ReadFile(filepath.Join(src, "guide.md"))
	if got := string(data[h.Start:h.End]); !strings.Contains(got, "hedgehogs were feeding") {
		t.Errorf("file[%d:%d] = %q, want the matching chunk", h.Start, h.End, got)
	}
	if h.Heading != "Care guide > Feeding" || h.Title != "Care guide" {
		t.Errorf("heading %q title %q", h.Heading, h.Title)
	}
	if !strings.Contains(h.Snippet, "**hedgehogs**") || !strings.Contains(h.Snippet, "**feeding**") {
		t.Errorf("snippet %q lacks highlighted stems", h.Snippet)
	}
	// The clock may not move within a fast search (Windows' is coarse), so
	// the timings are checked for consistency, not for being above zero.
	if tm := res.Timings; tm.BM25MS < 0 || tm.TotalMS < tm.BM25MS {
		t.Errorf("timings: the whole search took less than its BM25 part: %+v", tm)
	}
}

func TestSearchPathPrefix(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"work/a.txt": "quokka report", "home/b.txt": "quokka diary"})
	ix := openIndex(t, Options{Embedder: &hashEmbedder{model: "hash", dims: 64}})
	ingestPaths(t, ix, src)
	for _, mode := range []Mode{ModeBM25, ModeVector, ModeHybrid} {
		got := searchPaths(t, ix, Query{Text: "quokka", Mode: mode, PathPrefix: filepath.Join(src, "work")})
		if !slices.Equal(got, []string{filepath.Join(src, "work", "a.txt")}) {
			t.Errorf("%s: search with prefix = %v", mode, got)
		}
	}
}

func TestSearchModes(t *testing.T) {
	docs := []Document{
		{Path: "d/1", Text: "Lemurs leap between trees in Madagascar."},
		{Path: "d/2", Text: "Glaciers carve valleys over centuries."},
	}
	ctx := context.Background()
	t.Run("no embedder", func(t *testing.T) {
		ix := openIndex(t, Options{})
		if _, err := ix.IngestDocuments(ctx, docs, IngestOptions{}); err != nil {
			t.Fatal(err)
		}
		res, err := ix.Search(ctx, Query{Text: "lemurs", Mode: ModeHybrid})
		if err != nil || res.Mode != "bm25" || !strings.Contains(res.Note, "BM25 only") {
			t.Fatalf("hybrid without embedder: %+v, %v", res, err)
		}
		if _, err := ix.Search(ctx, Query{Text: "lemurs", Mode: ModeVector}); !errors.Is(err, ErrNoEmbedder) {
			t.Fatalf("vector without embedder: err = %v", err)
		}
		if _, err := ix.Search(ctx, Query{Text: "lemurs", Mode: "fuzzy"}); err == nil {
			t.Fatal("unknown mode accepted")
		}
		if _, err := ix.Search(ctx, Query{Text: "  "}); err == nil {
			t.Fatal("empty query accepted")
		}
	})
	t.Run("with embedder", func(t *testing.T) {
		emb := &hashEmbedder{model: "hash-words", dims: 128}
		ix := openIndex(t, Options{Embedder: emb})
		rep, err := ix.IngestDocuments(ctx, docs, IngestOptions{})
		if err != nil || rep.Embedded != 2 {
			t.Fatalf("ingest: %+v, %v", rep, err)
		}
		for mode, label := range map[Mode]string{ModeAuto: "hybrid:hash-words@128", ModeVector: "vector:hash-words@128", ModeBM25: "bm25"} {
			res, err := ix.Search(ctx, Query{Text: "glaciers valleys", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			if res.Mode != label || len(res.Hits) == 0 || res.Hits[0].Path != "d/2" {
				t.Errorf("mode %q: got mode %q hits %+v", mode, res.Mode, res.Hits)
			}
		}
		emb.fail.Store(true)
		res, err := ix.Search(ctx, Query{Text: "glaciers", Mode: ModeHybrid})
		if err != nil || res.Mode != "bm25" || !strings.Contains(res.Note, "unreachable since") {
			t.Fatalf("hybrid with the endpoint down: %+v, %v", res, err)
		}
	})
}

func TestFuseRRF(t *testing.T) {
	a := []rankedID{{id: "x"}, {id: "y"}, {id: "z"}}
	b := []rankedID{{id: "y"}, {id: "w"}}
	got := fuseRRF(60, a, b)
	var ids []string
	for _, r := range got {
		ids = append(ids, r.id)
	}
	// y: 1/62 + 1/61; x: 1/61; w: 1/62; z: 1/63 (w and x differ, no tie).
	if want := []string{"y", "x", "w", "z"}; !slices.Equal(ids, want) {
		t.Fatalf("order %v, want %v", ids, want)
	}
	if want := 1/float64(62) + 1/float64(61); math.Abs(got[0].score-want) > 1e-15 {
		t.Errorf("score of y = %v, want %v", got[0].score, want)
	}
	tie := fuseRRF(60, []rankedID{{id: "b"}}, []rankedID{{id: "a"}})
	if tie[0].id != "a" {
		t.Errorf("ties must break by id: %v", tie)
	}
}

func TestSnippetWindowAndMarks(t *testing.T) {
	ix := openIndex(t, Options{})
	text := strings.Repeat("filler words here. ", 30) + "Then the Otters' den flooded. " + strings.Repeat("more filler. ", 30)
	got := ix.ft.snippet(text, ix.ft.terms("otter dens"), 120)
	if !strings.Contains(got, "**Otters**'") || !strings.Contains(got, "**den**") {
		t.Errorf("snippet %q", got)
	}
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || len(got) > 160 {
		t.Errorf("snippet not windowed: %q", got)
	}
}
