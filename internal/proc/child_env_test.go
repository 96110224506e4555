package proc

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestChildEnv(t *testing.T) {
	cases := []struct {
		name       string
		parent     []string
		configured map[string]string
		want       []string
	}{
		{
			name:   "only the allow-list passes",
			parent: []string{"PATH=/bin", "HOME=/home/u", "OPENAI_API_KEY=sk-secret", "AWS_SECRET=x", "LC_ALL=C", "TZ=UTC", "NODE_OPTIONS=--inspect"},
			want:   []string{"HOME=/home/u", "LC_ALL=C", "PATH=/bin", "TZ=UTC"},
		},
		{
			name:       "configured variables are added and win",
			parent:     []string{"PATH=/bin", "LANG=C"},
			configured: map[string]string{"PATH": "/opt/bin", "API_TOKEN": "t"},
			want:       []string{"API_TOKEN=t", "LANG=C", "PATH=/opt/bin"},
		},
		{
			name:   "malformed and look-alike names are dropped",
			parent: []string{"PATHX=/bin", "noequals", "XLC_ALL=C", "=weird"},
			want:   []string{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ChildEnv(tc.parent, tc.configured)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

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
		{"not executable", "data", dir, "", ErrCommandNotFound},
		{"relative PATH entries are skipped", "tool", ".:relative", "", ErrCommandNotFound},
		{"missing", "nope", dir, "", ErrCommandNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LookPath(tc.command, tc.path)
			if got != tc.want || !errors.Is(err, tc.err) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
}
