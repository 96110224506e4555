package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// TestIndexShowsNamesNotUTF8 checks that a file named with bytes that are
// not UTF-8 stays indexed across refreshes and is shown with those bytes
// escaped, in text and in JSON alike.
func TestIndexShowsNamesNotUTF8(t *testing.T) {
	src, idx := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "bad\xff\xfename.txt"), []byte("zorblax quux"), 0o600); err != nil {
		t.Skipf("the file system refuses the name: %v", err)
	}
	if !testenv.NameKept(src, "bad\xff\xfename.txt") {
		t.Skip("the file system keeps the name as another")
	}
	writeFile(t, filepath.Join(src, "plain.txt"), "ordinary words")
	cfg := docsConfig(t, fmt.Sprintf(`{"dir": %q}`, idx))
	shown := filepath.Join(src, `bad\xff\xfename.txt`)
	cases := []struct {
		name string
		cmd  string
		args []string
		want string
	}{
		{"first add", "index", []string{"add", src}, "indexed 2, unchanged 0, removed 0"},
		{"refresh", "index", []string{"add", src}, "indexed 0, unchanged 2, removed 0"},
		{"second refresh", "index", []string{"add"}, "indexed 0, unchanged 2, removed 0"},
		{"ls", "index", []string{"ls"}, shown},
		{"ls --json", "index", []string{"ls", "--json"}, strings.ReplaceAll(shown, `\`, `\\`)},
		{"search", "search", []string{"zorblax"}, "1. " + shown},
		{"search --json", "search", []string{"--json", "zorblax"}, strings.ReplaceAll(shown, `\`, `\\`)},
		{"search under the folder", "search", []string{"--path-prefix", src, "zorblax"}, "1. " + shown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newCmd := newIndexCommand
			if c.cmd == "search" {
				newCmd = newSearchCommand
			}
			code, out, errOut := runSub(t, newCmd, cfg, c.args...)
			if code != 0 || !strings.Contains(out, c.want) || strings.Contains(out, "\uFFFD") {
				t.Errorf("%s %v: exit %d, want %q without U+FFFD in:\n%s%s", c.cmd, c.args, code, c.want, out, errOut)
			}
		})
	}
}
