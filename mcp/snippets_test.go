package mcp

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestSnippetsMatchGoldenFiles(t *testing.T) {
	tests := []struct {
		golden   string
		snippets []Snippet
	}{
		{"snippets_stdio.golden", StdioSnippets("/usr/local/bin/toolhub", []string{"serve"})},
		{"snippets_stdio_config.golden", StdioSnippets(`C:\Program Files\toolhub\toolhub.exe`,
			[]string{"serve", "--config", `C:\Users\me\toolhub.json`})},
		{"snippets_http.golden", HTTPSnippets("http://127.0.0.1:8765/mcp", "Tok-en_0123456789abcdefghijklmnopqrstuvwxyzABC")},
		{"snippets_http_noauth.golden", HTTPSnippets("http://127.0.0.1:8765/mcp", "")},
		{"snippets_http_odd_token.golden", HTTPSnippets("http://[::1]:9000/mcp", `it's&"odd"$token`)},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			got := FormatSnippets(tt.snippets)
			path := filepath.Join("testdata", tt.golden)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("snippets differ from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
			}
		})
	}
}
