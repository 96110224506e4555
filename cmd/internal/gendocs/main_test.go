package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func gunzip(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

func TestRunWritesManPagesAndCompletions(t *testing.T) {
	out := t.TempDir()
	if err := run(out); err != nil {
		t.Fatal(err)
	}
	pages := []struct{ file, want string }{
		{"toolhub.1.gz", ".TH \"TOOLHUB\" \"1\""},
		{"toolhub-serve.1.gz", "--token-file"},
		{"toolhub-service.1.gz", "systemd"},
		{"toolhub-service-install.1.gz", "127.0.0.1:8765"},
		{"toolhub-version.1.gz", "json"},
	}
	for _, p := range pages {
		if text := gunzip(t, filepath.Join(out, "man", p.file)); !strings.Contains(text, p.want) {
			t.Errorf("%s has no %q:\n%.400s", p.file, p.want, text)
		}
	}
	completions := []struct{ file, want string }{
		{"toolhub.bash", "__start_toolhub"},
		{"_toolhub", "#compdef toolhub"},
		{"toolhub.fish", "complete -c toolhub"},
	}
	for _, c := range completions {
		data, err := os.ReadFile(filepath.Join(out, "completions", c.file))
		if err != nil || !strings.Contains(string(data), c.want) {
			t.Errorf("%s: %v, has no %q", c.file, err, c.want)
		}
	}
}
