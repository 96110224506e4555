package retriever

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

func TestRemovedSubfolderStaysOutOfRefreshes(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"keep/a.txt": "ocelot one", "drop/b.txt": "ocelot two", "drop/c/d.txt": "ocelot three"})
	drop, keep := filepath.Join(src, "drop"), filepath.Join(src, "keep", "a.txt")
	ix := openIndex(t, Options{})
	ingestPaths(t, ix, src)
	ctx := context.Background()
	if _, err := ix.Remove(ctx, drop+string(filepath.Separator)); err != nil {
		t.Fatal(err)
	}
	st := assertConsistent(t, ix)
	if !slices.Equal(st.Excluded, []string{drop}) || !slices.Equal(st.Roots, []string{src}) {
		t.Fatalf("status after removing a subfolder: roots %v, excluded %v", st.Roots, st.Excluded)
	}
	cases := []struct {
		name  string
		paths []string
	}{
		{"root added again", []string{src}},
		{"refresh", nil},
	}
	for _, tc := range cases {
		rep, err := ix.IngestPaths(ctx, tc.paths, IngestOptions{Workers: 2})
		if err != nil || rep.Indexed != 0 || rep.Skipped != 0 {
			t.Fatalf("%s: %+v, %v", tc.name, rep, err)
		}
		if got := searchPaths(t, ix, Query{Text: "ocelot"}); !slices.Equal(got, []string{keep}) {
			t.Fatalf("%s brought the removed folder back: %v", tc.name, got)
		}
	}

	// A file inside the excluded folder, added by name, is indexed and
	// survives refreshes of the root; the rest of the folder stays out.
	single := filepath.Join(drop, "b.txt")
	ingestPaths(t, ix, single)
	ingestPaths(t, ix, src)
	if got := searchPaths(t, ix, Query{Text: "ocelot"}); !slices.Equal(got, []string{single, keep}) && !slices.Equal(got, []string{keep, single}) {
		t.Fatalf("file added by name inside the excluded folder: %v", got)
	}

	// Adding the folder itself by name brings it back.
	ingestPaths(t, ix, drop)
	st = assertConsistent(t, ix)
	if len(st.Excluded) != 0 || st.Documents != 3 {
		t.Fatalf("after adding the folder again: %d documents, excluded %v", st.Documents, st.Excluded)
	}
	ingestPaths(t, ix, src)
	if st := assertConsistent(t, ix); st.Documents != 3 {
		t.Fatalf("refresh after adding the folder again: %d documents", st.Documents)
	}
}

func TestRemovingARootForgetsItsExclusions(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a/x.txt": "lynx", "b/y.txt": "lynx"})
	ix := openIndex(t, Options{})
	ingestPaths(t, ix, src)
	ctx := context.Background()
	if _, err := ix.Remove(ctx, filepath.Join(src, "a")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Remove(ctx, src); err != nil {
		t.Fatal(err)
	}
	st := assertConsistent(t, ix)
	if len(st.Excluded) != 0 || len(st.Roots) != 0 || st.Documents != 0 {
		t.Fatalf("after removing the root: %+v", st)
	}
	ingestPaths(t, ix, src)
	if st := assertConsistent(t, ix); st.Documents != 2 {
		t.Fatalf("root added again after removal: %d documents, want 2", st.Documents)
	}
}

func TestIsUnder(t *testing.T) {
	cases := []struct {
		name, path, root string
		sep              byte
		want             bool
	}{
		{"the root itself", "/docs", "/docs", '/', true},
		{"below", "/docs/a/b.txt", "/docs", '/', true},
		{"a sibling sharing the prefix", "/docsx/a.txt", "/docs", '/', false},
		{"below the file system root", "/a.txt", "/", '/', true},
		{"windows: below", `C:\docs\a\b.txt`, `C:\docs`, '\\', true},
		{"windows: the root itself", `C:\docs`, `C:\docs`, '\\', true},
		{"windows: a sibling sharing the prefix", `C:\docsx\a.txt`, `C:\docs`, '\\', false},
		{"windows: below a drive", `C:\a.txt`, `C:\`, '\\', true},
		{"windows: another drive", `D:\docs\a.txt`, `C:\docs`, '\\', false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := isUnderSep(tc.path, tc.root, tc.sep); got != tc.want {
				t.Fatalf("isUnderSep(%q, %q, %q) = %v, want %v", tc.path, tc.root, tc.sep, got, tc.want)
			}
		})
	}
}
