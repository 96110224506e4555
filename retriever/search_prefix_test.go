package retriever

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestPathPrefixKeepsScores checks that a search restricted to a path
// prefix gives the documents inside it the scores the unrestricted search
// gives them, and returns nothing outside it, however many paths the
// prefix covers.
func TestPathPrefixKeepsScores(t *testing.T) {
	src := t.TempDir()
	writeScoringCorpus(t, filepath.Join(src, "in"))
	writeScoringCorpus(t, filepath.Join(src, "inner"))
	writeScoringCorpus(t, filepath.Join(src, "out"))
	writeTree(t, src, map[string]string{"solo/one.txt": "heron alone"})
	ix := openIndex(t, Options{ChunkBytes: 300})
	ingestPaths(t, ix, src)
	queries := []string{"heron", "walrus lantern", "quarry ember falcon"}
	all := scoresByChunk(t, ix, queries)
	cases := []struct {
		name   string
		prefix string
	}{
		{"a folder of many files", filepath.Join(src, "in") + string(filepath.Separator)},
		{"a name prefix of two folders", filepath.Join(src, "in")},
		{"a folder of one file", filepath.Join(src, "solo")},
		{"one file", filepath.Join(src, "in", "doc07.txt")},
		{"the whole tree", src},
		{"nothing", filepath.Join(src, "none")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := map[string]float64{}
			for key, score := range all {
				if strings.HasPrefix(key[strings.IndexByte(key, '|')+1:], c.prefix) {
					want[key] = score
				}
			}
			got := prefixScores(t, ix, queries, c.prefix)
			if len(want) == 0 && len(got) == 0 {
				return
			}
			assertSameScores(t, want, got, c.name)
		})
	}
}

// prefixScores is scoresByChunk with a path prefix.
func prefixScores(t *testing.T, ix *Index, queries []string, prefix string) map[string]float64 {
	t.Helper()
	out := map[string]float64{}
	for _, q := range queries {
		res, err := ix.Search(context.Background(), Query{Text: q, K: 1000, Mode: ModeBM25, Ungrouped: true, PathPrefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			out[q+"|"+h.ChunkID] = h.Score
		}
	}
	return out
}
