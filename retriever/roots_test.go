package retriever

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestRemoveSaysWhatItDoesNotKnow checks that Remove reports a path the
// index knows nothing of, and removes or excludes every path it knows.
func TestRemoveSaysWhatItDoesNotKnow(t *testing.T) {
	cases := []struct {
		name    string
		path    func(src, empty string) string
		removed int
		unknown bool
	}{
		{"a path never added", func(src, _ string) string { return filepath.Join(filepath.Dir(src), "nonexistent") }, 0, true},
		{"a relative path never added", func(string, string) string { return "nonexistent-here" }, 0, true},
		{"a sibling with a name prefix", func(src, _ string) string { return src + "x" }, 0, true},
		{"an indexed folder", func(src, _ string) string { return src }, 2, false},
		{"an indexed file", func(src, _ string) string { return filepath.Join(src, "a.txt") }, 1, false},
		{"an added folder with no documents", func(_, empty string) string { return empty }, 0, false},
		{"a path inside an indexed folder with no documents", func(src, _ string) string { return filepath.Join(src, "not-there") }, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, empty := t.TempDir(), t.TempDir()
			writeTree(t, src, map[string]string{"a.txt": "alpha", "sub/b.txt": "beta"})
			ix := openIndex(t, Options{})
			ingestPaths(t, ix, src, empty)
			n, err := ix.Remove(context.Background(), c.path(src, empty))
			if got := errors.Is(err, ErrNotIndexed); got != c.unknown || (err != nil && !c.unknown) {
				t.Fatalf("Remove = %d, %v; want unknown = %v", n, err, c.unknown)
			}
			if n != c.removed {
				t.Errorf("removed %d documents, want %d", n, c.removed)
			}
			if c.unknown {
				assertRoots(t, ix, src, empty)
			}
		})
	}
}

func TestRemoveExcludedPathAgain(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a.txt": "alpha", "sub/b.txt": "beta"})
	ix := openIndex(t, Options{})
	ingestPaths(t, ix, src)
	for run := range 2 {
		if _, err := ix.Remove(context.Background(), filepath.Join(src, "sub")); err != nil {
			t.Fatalf("remove %d: %v", run+1, err)
		}
	}
}
