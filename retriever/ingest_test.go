package retriever

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestIngestIncremental(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{
		"a.md":     "# Alpha\n\nThe aardvark sleeps.",
		"b.txt":    "A bumblebee hums.",
		"sub/c.go": "package c // capybara",
	})
	ix := openIndex(t, Options{})
	rep := ingestPaths(t, ix, src)
	if rep.Indexed != 3 || rep.Unchanged != 0 || rep.Removed != 0 {
		t.Fatalf("first ingest: %+v", rep)
	}
	for word, file := range map[string]string{"aardvark": "a.md", "bumblebee": "b.txt", "capybara": "sub/c.go"} {
		if got := searchPaths(t, ix, Query{Text: word}); !slices.Equal(got, []string{filepath.Join(src, file)}) {
			t.Errorf("search %q = %v, want %s", word, got, file)
		}
	}

	rep = ingestPaths(t, ix, src)
	if rep.Indexed != 0 || rep.Unchanged != 3 {
		t.Fatalf("second ingest should find nothing new: %+v", rep)
	}

	writeTree(t, src, map[string]string{"a.md": "# Alpha\n\nThe axolotl swims.", "d.txt": "A dormouse naps."})
	if err := os.Remove(filepath.Join(src, "b.txt")); err != nil {
		t.Fatal(err)
	}
	rep = ingestPaths(t, ix, src)
	if rep.Indexed != 2 || rep.Unchanged != 1 || rep.Removed != 1 {
		t.Fatalf("third ingest: %+v", rep)
	}
	for word, want := range map[string][]string{
		"aardvark":  nil,
		"axolotl":   {filepath.Join(src, "a.md")},
		"bumblebee": nil,
		"dormouse":  {filepath.Join(src, "d.txt")},
	} {
		if got := searchPaths(t, ix, Query{Text: word}); !slices.Equal(got, want) {
			t.Errorf("after changes, search %q = %v, want %v", word, got, want)
		}
	}
	st := assertConsistent(t, ix)
	if st.Documents != 3 {
		t.Errorf("status lists %d documents, want 3", st.Documents)
	}
}

func TestIngestRefreshWithoutPathsUsesRoots(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"x/one.txt": "first narwhal", "y/two.txt": "second narwhal", "y/three.txt": "third"})
	ix := openIndex(t, Options{})
	ingestPaths(t, ix, filepath.Join(src, "x"), filepath.Join(src, "y"))
	if err := os.Remove(filepath.Join(src, "y", "three.txt")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, src, map[string]string{"x/four.txt": "fourth narwhal"})
	rep := ingestPaths(t, ix)
	if rep.Removed != 1 || rep.Unchanged != 2 || rep.Indexed != 1 {
		t.Fatalf("refresh: %+v", rep)
	}

	// A root that cannot be read (an unmounted drive) keeps its documents.
	if err := os.RemoveAll(filepath.Join(src, "y")); err != nil {
		t.Fatal(err)
	}
	rep = ingestPaths(t, ix)
	if rep.Removed != 0 || rep.Failed != 1 || !strings.Contains(rep.Problems[0].Reason, "kept") {
		t.Fatalf("refresh after a root vanished: %+v", rep)
	}
	if got := searchPaths(t, ix, Query{Text: "narwhal"}); len(got) != 3 {
		t.Errorf("search = %v, want the documents of both roots", got)
	}
	if _, err := ix.IngestPaths(context.Background(), []string{filepath.Join(src, "typo")}, IngestOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing path given explicitly: err = %v", err)
	}
}

func TestIngestExcludesAndSkips(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{
		".gitignore":       "*.log\nbuild/\n",
		"keep/.gitignore":  "!*.log\n",
		"keep/wanted.log":  "wanted log line",
		"debug.log":        "ignored log line",
		"build/out.txt":    "ignored build output",
		"secret/plans.txt": "ignored by the configured excludes",
		"notes.txt":        "plain notes",
		"photo.png":        "not really a png",
		"blob":             "bin\x00ary",
		"big.txt":          strings.Repeat("x", 2000),
		".git/config":      "[core]",
	})
	ix := openIndex(t, Options{})
	rep, err := ix.IngestPaths(context.Background(), []string{src}, IngestOptions{Exclude: []string{"secret/"}, MaxFileBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	list, err := ix.List("")
	if err != nil {
		t.Fatal(err)
	}
	var indexed []string
	for _, d := range list {
		rel, _ := filepath.Rel(src, d.Path)
		indexed = append(indexed, filepath.ToSlash(rel))
	}
	slices.Sort(indexed)
	if want := []string{".gitignore", "keep/.gitignore", "keep/wanted.log", "notes.txt"}; !slices.Equal(indexed, want) {
		t.Errorf("indexed %v, want %v", indexed, want)
	}
	reasons := map[string]string{}
	for _, p := range rep.Problems {
		reasons[filepath.Base(p.Path)] = p.Reason
	}
	for file, want := range map[string]string{"photo.png": "binary file type .png", "blob": "binary content", "big.txt": "over the 1000 B size cap"} {
		if !strings.Contains(reasons[file], want) {
			t.Errorf("%s: reason %q, want it to mention %q", file, reasons[file], want)
		}
	}
	if rep.Skipped != 3 || rep.Failed != 0 {
		t.Errorf("report: %+v", rep)
	}
}

func TestIngestBadFilesDoNotStopTheRest(t *testing.T) {
	src := t.TempDir()
	good := makePDF("Good report", "Quarterly figures for the walrus division")
	writeTree(t, src, map[string]string{
		"good.pdf":   string(good),
		"broken.pdf": string(good[:len(good)/3]),
		"huge.html":  "<p>fine</p><div title=\"" + strings.Repeat("y", maxHTMLToken+1) + "\">",
		"page.html":  "<title>Guide</title><h1>Penguins</h1><p>Penguins waddle.</p>",
		"notes.md":   "# Notes\n\nAbout the walrus.",
	})
	ix := openIndex(t, Options{})
	rep := ingestPaths(t, ix, src)
	if rep.Indexed != 3 || rep.Failed != 2 {
		t.Fatalf("report: %+v", rep)
	}
	for _, p := range rep.Problems {
		name := filepath.Base(p.Path)
		if !p.Failed || !strings.HasPrefix(p.Reason, strings.TrimPrefix(filepath.Ext(name), ".")+": ") {
			t.Errorf("%s: want a failure explained by its parser, got %+v", name, p)
		}
	}
	got := searchPaths(t, ix, Query{Text: "walrus"})
	want := []string{filepath.Join(src, "good.pdf"), filepath.Join(src, "notes.md")}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("search walrus = %v, want %v", got, want)
	}
	assertConsistent(t, ix)
}

func TestRemove(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"keep/a.txt": "ocelot one", "drop/b.txt": "ocelot two", "drop/c/d.txt": "ocelot three"})
	ix := openIndex(t, Options{})
	ingestPaths(t, ix, src)
	n, err := ix.Remove(context.Background(), filepath.Join(src, "drop"))
	if err != nil || n != 2 {
		t.Fatalf("Remove = %d, %v; want 2", n, err)
	}
	if got := searchPaths(t, ix, Query{Text: "ocelot"}); !slices.Equal(got, []string{filepath.Join(src, "keep", "a.txt")}) {
		t.Errorf("search after remove = %v", got)
	}
	assertConsistent(t, ix)
	n, err = ix.Remove(context.Background(), src)
	if err != nil || n != 1 {
		t.Fatalf("Remove root = %d, %v; want 1", n, err)
	}
	roots, _ := ix.Roots()
	if len(roots) != 0 {
		t.Errorf("roots after removing the root: %v", roots)
	}
}

func TestIngestDocumentsReplacesByPath(t *testing.T) {
	ix := openIndex(t, Options{})
	ctx := context.Background()
	docs := []Document{{Path: "kb/1", Title: "Tapirs", Text: "Tapirs eat fruit."}, {Path: "kb/2", Text: "Okapis eat leaves."}}
	if _, err := ix.IngestDocuments(ctx, docs, IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	docs[0].Text = "Tapirs swim well."
	rep, err := ix.IngestDocuments(ctx, docs, IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Indexed != 1 || rep.Unchanged != 1 {
		t.Fatalf("report: %+v", rep)
	}
	if got := searchPaths(t, ix, Query{Text: "fruit"}); len(got) != 0 {
		t.Errorf("old text still found: %v", got)
	}
	if got := searchPaths(t, ix, Query{Text: "tapirs swim"}); !slices.Equal(got, []string{"kb/1"}) {
		t.Errorf("search = %v", got)
	}
	assertConsistent(t, ix)
}

func TestIngestProgressEvents(t *testing.T) {
	src := t.TempDir()
	writeTree(t, src, map[string]string{"a.txt": "one", "b.txt": "two", "c.bin": "x\x00y"})
	ix := openIndex(t, Options{})
	var events []Event
	_, err := ix.IngestPaths(context.Background(), []string{src}, IngestOptions{Progress: func(e Event) { events = append(events, e) }})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[EventKind]int{}
	for _, e := range events {
		kinds[e.Kind]++
	}
	if kinds[EventScanned] != 1 || kinds[EventIndexed] != 2 || kinds[EventSkipped] != 1 || kinds[EventDone] != 1 {
		t.Errorf("event kinds: %v", kinds)
	}
	last := events[len(events)-1]
	if last.Kind != EventDone || last.Done != 3 || last.Total != 3 {
		t.Errorf("last event %+v, want done 3/3", last)
	}
}
