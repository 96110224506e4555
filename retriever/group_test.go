package retriever

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestSearchGroupsChunksByFile(t *testing.T) {
	ix := openIndex(t, Options{ChunkBytes: 64})
	long := strings.Repeat("The mutex guards the counter. ", 12)
	docs := []Document{{Path: "g/mutex.go", Text: long}, {Path: "g/other.go", Text: "a mutex here once"}}
	if _, err := ix.IngestDocuments(context.Background(), docs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		ungrouped bool
	}{{"grouped", false}, {"ungrouped", true}} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := ix.Search(context.Background(), Query{Text: "mutex", K: 3, Mode: ModeBM25, Ungrouped: tc.ungrouped})
			if err != nil {
				t.Fatal(err)
			}
			paths := map[string]int{}
			folded := 0
			for _, h := range res.Hits {
				paths[h.Path]++
				for _, m := range h.More {
					if m.Path != h.Path {
						t.Errorf("hit of %s folded under %s", m.Path, h.Path)
					}
					folded++
				}
			}
			if tc.ungrouped {
				if len(res.Hits) != 3 || paths["g/mutex.go"] < 2 || folded != 0 {
					t.Errorf("ungrouped hits: %+v", res.Hits)
				}
				return
			}
			if len(res.Hits) != 2 || paths["g/mutex.go"] != 1 || paths["g/other.go"] != 1 || folded == 0 {
				t.Errorf("grouped hits: %+v", res.Hits)
			}
		})
	}
}

func TestSearchSaysWhenKIsCapped(t *testing.T) {
	ix := openIndex(t, Options{})
	if _, err := ix.IngestDocuments(context.Background(), []Document{{Path: "k/1", Text: "capped"}}, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(context.Background(), Query{Text: "capped", K: 5000, Mode: ModeBM25})
	if err != nil || !strings.Contains(res.Note, "k = 5000 lowered to the maximum of 1000") {
		t.Fatalf("search with k = 5000: %+v, %v", res, err)
	}
}

// TestGroupedSearchFillsK checks that a grouped search returns K files
// when at least K match, however many chunks one file holds above the
// others, and every matching file when fewer match.
func TestGroupedSearchFillsK(t *testing.T) {
	ix := openIndex(t, Options{ChunkBytes: 64, Embedder: &hashEmbedder{model: "hash", dims: 64}})
	docs := []Document{{Path: "big/crowd.txt", Text: strings.Repeat("alpha alpha alpha alpha.\n\n", 400)}}
	for i := range 30 {
		docs = append(docs, Document{Path: fmt.Sprintf("small/%02d.txt", i), Text: fmt.Sprintf("alpha beta gamma delta note %d", i)})
	}
	if _, err := ix.IngestDocuments(context.Background(), docs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		k    int
		want int
	}{
		{"a few files", 3, 3},
		{"ten files", 10, 10},
		{"every file exactly", 31, 31},
		{"more than match", 50, 31},
	}
	for _, c := range cases {
		for _, mode := range []Mode{ModeBM25, ModeVector, ModeHybrid} {
			t.Run(fmt.Sprintf("%s/%s", c.name, mode), func(t *testing.T) {
				res, err := ix.Search(context.Background(), Query{Text: "alpha", K: c.k, Mode: mode})
				if err != nil {
					t.Fatal(err)
				}
				seen := map[string]bool{}
				for _, h := range res.Hits {
					if seen[h.Path] {
						t.Errorf("%s listed twice", h.Path)
					}
					seen[h.Path] = true
				}
				if len(res.Hits) != c.want || !seen["big/crowd.txt"] {
					t.Errorf("k = %d: %d files (crowd listed: %v), want %d", c.k, len(res.Hits), seen["big/crowd.txt"], c.want)
				}
			})
		}
	}
}
