//go:build !windows

package hub

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommandProblem(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "server")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	onPath := map[string]string{"PATH": dir}
	cases := []struct {
		name          string
		spec          ServerSpec
		problem, hint string // substrings; "" for none
	}{
		{"found on the server's PATH", ServerSpec{Command: "server", Env: onPath}, "", ""},
		{"a program at an absolute path", ServerSpec{Command: exe}, "", ""},
		{"a relative path is left to the start", ServerSpec{Command: "./server"}, "", ""},
		{"not a stdio server", ServerSpec{Transport: TransportHTTP, Command: filepath.Join(dir, "gone")}, "", ""},
		{"on no PATH entry", ServerSpec{Command: "no-such-server", Env: onPath}, `command "no-such-server" is on no PATH entry here`, "give its full path"},
		{"nothing at the path", ServerSpec{Command: filepath.Join(dir, "gone")}, "there is no file at", "install it there"},
		{"a folder", ServerSpec{Command: dir}, "is a folder, not a program", "the path of the program itself"},
		{"a file without an execute bit", ServerSpec{Command: plain}, "is not executable", "the path of the program itself"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			problem, hint := CommandProblem(tc.spec)
			if (tc.problem == "") != (problem == "") || !strings.Contains(problem, tc.problem) || !strings.Contains(hint, tc.hint) {
				t.Errorf("problem %q, hint %q; want %q, %q", problem, hint, tc.problem, tc.hint)
			}
		})
	}
}
