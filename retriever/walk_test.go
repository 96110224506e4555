package retriever

import (
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

func TestWalkProblemKinds(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want EventKind
	}{
		{"deleted during the scan", &fs.PathError{Op: "lstat", Path: "/x/a.txt", Err: fs.ErrNotExist}, EventSkipped},
		{"permission denied", &fs.PathError{Op: "open", Path: "/x/a.txt", Err: fs.ErrPermission}, EventFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWalker("/x", nil, 1<<20)
			w.skipErr("/x/a.txt", tc.err)
			if len(w.skipped) != 1 || w.skipped[0].Kind != tc.want {
				t.Fatalf("walk problem %v recorded as %+v, want %s", tc.err, w.skipped, tc.want)
			}
		})
	}
}

func TestOneProblemPerFolder(t *testing.T) {
	dir := filepath.Join("x", "locked")
	ignore := filepath.Join(dir, ".gitignore")
	failed := func(p string) Event { return Event{Kind: EventFailed, Path: p, Reason: "permission denied"} }
	skipped := func(p string) Event { return Event{Kind: EventSkipped, Path: p, Reason: "deleted during the scan"} }
	cases := []struct {
		name string
		in   []Event
		want []string
	}{
		{"folder and its .gitignore", []Event{failed(ignore), failed(dir)}, []string{dir}},
		{".gitignore alone", []Event{failed(ignore)}, []string{ignore}},
		{"folder alone", []Event{failed(dir)}, []string{dir}},
		{"another folder's .gitignore", []Event{failed(filepath.Join("x", "other", ".gitignore")), failed(dir)}, []string{filepath.Join("x", "other", ".gitignore"), dir}},
		{"a file of the folder", []Event{failed(filepath.Join(dir, "a.txt")), failed(dir)}, []string{filepath.Join(dir, "a.txt"), dir}},
		{"folder only skipped", []Event{failed(ignore), skipped(dir)}, []string{ignore, dir}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWalker("x", nil, 1<<20)
			w.skipped = tc.in
			w.oneProblemPerFolder()
			var got []string
			for _, ev := range w.skipped {
				got = append(got, ev.Path)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("problems %q, want %q", got, tc.want)
			}
		})
	}
}
