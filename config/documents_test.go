package config

import (
	"path/filepath"
	"testing"
)

func TestExpandHome(t *testing.T) {
	home := filepath.Join(string(filepath.Separator), "home", "ann")
	cases := []struct {
		name, path string
		home       string
		sep        byte
		want       string
	}{
		{"alone", "~", home, '/', home},
		{"with a slash", "~/notes", home, '/', filepath.Join(home, "notes")},
		{"a backslash on windows", `~\notes`, home, '\\', filepath.Join(home, "notes")},
		{"a slash on windows too", "~/notes", home, '\\', filepath.Join(home, "notes")},
		{"a backslash elsewhere is part of a name", `~\notes`, home, '/', `~\notes`},
		{"another user's home is not read", "~bob/notes", home, '/', "~bob/notes"},
		{"no home", "~/notes", "", '/', "~/notes"},
		{"an absolute path", "/srv/docs", home, '/', "/srv/docs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := expandHomeSep(tc.path, tc.home, tc.sep); got != tc.want {
				t.Fatalf("expandHomeSep(%q) = %q, want %q", tc.path, got, tc.want)
			}
		})
	}
}
