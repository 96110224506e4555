package retriever

import (
	"io/fs"
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
