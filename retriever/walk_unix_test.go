//go:build unix

package retriever

import (
	"os"
	"path/filepath"
	"testing"
)

// TestUnreadableFolderReportedOnce checks that a folder that cannot be
// read is one problem, not also one for its .gitignore. Permissions do
// not stop root, so it runs for other users only.
func TestUnreadableFolderReportedOnce(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every folder")
	}
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a.txt": "alpha", "locked/b.txt": "beta"})
	locked := filepath.Join(src, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	ix := openIndex(t, Options{})
	rep := ingestPaths(t, ix, src)
	if rep.Failed != 1 || len(rep.Problems) != 1 || rep.Problems[0].Path != locked {
		t.Fatalf("ingest: %+v, want one failure for %s", rep, locked)
	}
}
