//go:build !windows

package proc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestLookPathUsesTheChildsPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "tool")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "data")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, command, path, want string
		err                       error
	}{
		{"found on the child's PATH", "tool", "/nonexistent:" + dir, exe, nil},
		{"a path is used as is", "./relative/tool", "", "./relative/tool", nil},
		{"an absolute path is used as is", exe, "", exe, nil},
		{"an absolute path where nothing is fails", filepath.Join(dir, "gone"), dir, "", ErrCommandNotFound},
		{"an absolute path to a folder fails", dir, "", "", ErrCommandNotFound},
		{"an absolute path to a file without an execute bit fails", plain, "", "", ErrCommandNotFound},
		{"not executable", "data", dir, "", ErrCommandNotFound},
		{"relative PATH entries are skipped", "tool", ".:relative", "", ErrCommandNotFound},
		{"no extension is added", "tool.cmd", dir, "", ErrCommandNotFound},
		{"missing", "nope", dir, "", ErrCommandNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LookPath(tc.command, []string{"PATH=" + tc.path})
			if got != tc.want || !errors.Is(err, tc.err) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestMissingProgramSaysWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "data")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, command, want string
		noFile              bool
	}{
		{"nothing there", filepath.Join(dir, "gone"), ReasonNoFile, true},
		{"a folder", dir, ReasonFolder, false},
		{"a plain file", plain, ReasonNotExecutable, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LookPath(tc.command, nil)
			missing, ok := errors.AsType[*MissingProgramError](err)
			if !ok || missing.Error() != tc.want || missing.NoFile() != tc.noFile || missing.Path != tc.command {
				t.Fatalf("err %v, want %q (no file: %v)", err, tc.want, tc.noFile)
			}
		})
	}
}
