package retriever

import (
	"context"
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
