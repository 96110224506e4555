//go:build unix

package retriever

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOnlyFilesAndFoldersBecomeRoots checks that a device or a FIFO given
// to IngestPaths is reported as skipped and not kept as a root.
func TestOnlyFilesAndFoldersBecomeRoots(t *testing.T) {
	cases := []struct {
		name string
		path func(t *testing.T, dir string) string
		root bool
	}{
		{"a device", func(*testing.T, string) string { return os.DevNull }, false},
		{"a fifo", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pipe")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			return p
		}, false},
		{"a regular file", func(t *testing.T, dir string) string {
			writeTree(t, dir, map[string]string{"a.txt": "alpha"})
			return filepath.Join(dir, "a.txt")
		}, true},
		{"a folder", func(t *testing.T, dir string) string { return dir }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := c.path(t, t.TempDir())
			ix := openIndex(t, Options{})
			rep := ingestPaths(t, ix, path)
			var want []string
			if c.root {
				want = []string{path}
			} else if rep.Skipped != 1 || len(rep.Problems) != 1 || rep.Problems[0].Reason != "not a regular file" {
				t.Errorf("ingest of %s: %+v, want it skipped as not a regular file", path, rep)
			}
			assertRoots(t, ix, want...)
		})
	}
}
