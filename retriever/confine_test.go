package retriever

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// confinedFixture is a root holding a file, a symlink to it and a
// symlink to a secret outside the root.
type confinedFixture struct {
	root, secret string
}

func newConfinedFixture(t *testing.T) confinedFixture {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	writeTree(t, root, map[string]string{"inside.txt": "ordinary notes about herons"})
	writeTree(t, outside, map[string]string{"secret.txt": "privatekeymaterial zebracorn"})
	testenv.Symlink(t, filepath.Join(root, "inside.txt"), filepath.Join(root, "link-in.txt"))
	mustSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "link-out.txt"))
	mustSymlink(t, filepath.Join("..", "outside", "secret.txt"), filepath.Join(root, "link-rel-out.txt"))
	mustSymlink(t, outside, filepath.Join(root, "link-dir"))
	return confinedFixture{root: root, secret: filepath.Join(outside, "secret.txt")}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// assertSecretHidden checks that no search mode or listing serves the
// secret's content.
func assertSecretHidden(t *testing.T, ix *Index) {
	t.Helper()
	if got := searchPaths(t, ix, Query{Text: "zebracorn privatekeymaterial"}); len(got) != 0 {
		t.Errorf("secret served by search: %v", got)
	}
	list, err := ix.List("")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		if strings.Contains(d.Path, "secret") {
			t.Errorf("secret listed: %s", d.Path)
		}
	}
}

func TestSymlinkOutsideRootNotIndexed(t *testing.T) {
	for _, tc := range []struct {
		name string
		path func(f confinedFixture) string
	}{
		{"folder root", func(f confinedFixture) string { return f.root }},
		{"link given as the root", func(f confinedFixture) string { return filepath.Join(f.root, "link-out.txt") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newConfinedFixture(t)
			ix := openIndex(t, Options{})
			rep := ingestPaths(t, ix, tc.path(f))
			assertSecretHidden(t, ix)
			for _, link := range []string{"link-out.txt", "link-rel-out.txt"} {
				reason := problemReason(rep, filepath.Join(f.root, link))
				if tc.name == "folder root" && !strings.Contains(reason, "outside the indexed folder") {
					t.Errorf("%s: reason %q, want it to say the target is outside", link, reason)
				}
			}
			if tc.name != "folder root" {
				return
			}
			got := searchPaths(t, ix, Query{Text: "herons"})
			slices.Sort(got)
			want := []string{filepath.Join(f.root, "inside.txt"), filepath.Join(f.root, "link-in.txt")}
			if !slices.Equal(got, want) {
				t.Errorf("herons found in %v, want %v (report %+v)", got, want, rep)
			}
		})
	}
}

// TestSymlinkSwappedBeforeRead replaces, after the walk and before the
// read, an entry found inside the root with a link to the secret.
func TestSymlinkSwappedBeforeRead(t *testing.T) {
	for _, tc := range []struct {
		name, swapped string
		relative      bool
	}{
		{"file to absolute link", "inside.txt", false},
		{"file to relative link", "inside.txt", true},
		{"inside link to absolute link", "link-in.txt", false},
		{"inside link to relative link", "link-in.txt", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newConfinedFixture(t)
			victim := filepath.Join(f.root, tc.swapped)
			target := f.secret
			if tc.relative {
				target = filepath.Join("..", "outside", "secret.txt")
			}
			ix := openIndex(t, Options{})
			ix.beforeRead = func(path string) {
				if path != victim {
					return
				}
				if err := os.Remove(victim); err != nil {
					t.Error(err)
				}
				if err := os.Symlink(target, victim); err != nil {
					t.Error(err)
				}
			}
			rep := ingestPaths(t, ix, f.root)
			assertSecretHidden(t, ix)
			if reason := problemReason(rep, victim); !strings.Contains(reason, "outside the indexed folder") {
				t.Errorf("%s: reason %q, want it to say it resolves outside", tc.swapped, reason)
			}
		})
	}
}

func problemReason(rep IngestReport, path string) string {
	for _, p := range rep.Problems {
		if p.Path == path {
			return p.Reason
		}
	}
	return ""
}
