package retriever

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/toolhub/toolhub/internal/testenv"
)

// TestIngestNamesNotUTF8 checks that a file named with bytes that are not
// UTF-8 is one document: indexed once, unchanged on the next refresh,
// found by its content under its exact path, listed, removed when deleted
// and removed by name.
func TestIngestNamesNotUTF8(t *testing.T) {
	cases := []struct {
		name string
		rel  string // below the root, with the folders it lies in
		word string
	}{
		{"two bad bytes", "bad\xff\xfename.txt", "zorblax"},
		{"latin-1 name", "r\xe9sum\xe9.md", "quillfeather"},
		{"lone continuation byte", "\x80.txt", "snorkelwump"},
		{"folder not utf-8", "dossier\xe9/notes.txt", "bramblethorn"},
		{"cut character", "caf\xc3", "mugwortle"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := t.TempDir()
			path := filepath.Join(src, filepath.FromSlash(c.rel))
			writeOddName(t, path, c.word+" quux")
			writeTree(t, src, map[string]string{"plain.txt": "ordinary words"})
			ix := openIndex(t, Options{Embedder: &hashEmbedder{model: "hash", dims: 64}})
			if rep := ingestPaths(t, ix, src); rep.Indexed != 2 || rep.Removed != 0 {
				t.Fatalf("first ingest: %+v", rep)
			}
			for run := range 2 {
				if rep := ingestPaths(t, ix, src); rep.Unchanged != 2 || rep.Removed != 0 || rep.Indexed != 0 {
					t.Fatalf("refresh %d: %+v", run+1, rep)
				}
			}
			if got := searchPaths(t, ix, Query{Text: c.word}); !slices.Equal(got, []string{path}) {
				t.Errorf("search %q = %q, want %q", c.word, got, path)
			}
			for _, mode := range []Mode{ModeBM25, ModeVector, ModeHybrid} {
				q := Query{Text: c.word, Mode: mode, PathPrefix: filepath.Dir(path)}
				if got := searchPaths(t, ix, q); !slices.Contains(got, path) {
					t.Errorf("%s search %q under its folder = %q, want %q", mode, c.word, got, path)
				}
			}
			assertListed(t, ix, path, true)
			assertConsistent(t, ix)

			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if rep := ingestPaths(t, ix, src); rep.Removed != 1 || rep.Unchanged != 1 {
				t.Fatalf("ingest after deleting it: %+v", rep)
			}
			assertListed(t, ix, path, false)

			writeOddName(t, path, c.word+" again")
			ingestPaths(t, ix, src)
			if n, err := ix.Remove(context.Background(), path); err != nil || n != 1 {
				t.Fatalf("Remove(%q) = %d, %v; want 1 document", path, n, err)
			}
			assertListed(t, ix, path, false)
			if got := searchPaths(t, ix, Query{Text: c.word}); len(got) != 0 {
				t.Errorf("search %q after Remove = %q", c.word, got)
			}
		})
	}
}

// writeOddName writes a file whose name may not be UTF-8, skipping the
// test where the file system refuses such names (macOS, Windows).
func writeOddName(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Skipf("the file system refuses the name: %v", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Skipf("the file system refuses the name: %v", err)
	}
	for p := path; !utf8.ValidString(p); p = filepath.Dir(p) {
		if !testenv.NameKept(filepath.Dir(p), filepath.Base(p)) {
			t.Skipf("the file system keeps %q as another name", filepath.Base(p))
		}
	}
}

func assertListed(t *testing.T, ix *Index, path string, want bool) {
	t.Helper()
	docs, err := ix.List("")
	if err != nil {
		t.Fatal(err)
	}
	got := slices.ContainsFunc(docs, func(d DocInfo) bool { return d.Path == path })
	if got != want {
		t.Errorf("%q listed: %v, want %v (list: %+v)", path, got, want, docs)
	}
}
