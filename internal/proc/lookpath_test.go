package proc

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeFiles creates the named files in a new directory with mode and
// returns it.
func writeFiles(t *testing.T, mode os.FileMode, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("@echo off\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLookPathOnWindows checks the Windows rules with files on this
// machine's disk: they need no execute bit, only a PATHEXT extension.
func TestLookPathOnWindows(t *testing.T) {
	dir := writeFiles(t, 0o644, "npx.cmd", "node.exe", "both.exe", "both.cmd", "noext", "script.py")
	other := writeFiles(t, 0o644, "uvx.exe")
	rules := lookupRules{env: windowsEnv, windows: true}
	cases := []struct {
		name, command string
		env           []string
		want          string
		err           error
	}{
		{"npx is npx.cmd", "npx", []string{"PATH=" + dir}, filepath.Join(dir, "npx.cmd"), nil},
		{"an extension given is kept", "npx.cmd", []string{"PATH=" + dir}, filepath.Join(dir, "npx.cmd"), nil},
		{"node is node.exe", "node", []string{"PATH=" + dir}, filepath.Join(dir, "node.exe"), nil},
		{"Path in any case", "node", []string{"Path=" + dir}, filepath.Join(dir, "node.exe"), nil},
		{"every entry is searched in order", "uvx", []string{"PATH=" + dir + ";" + other}, filepath.Join(other, "uvx.exe"), nil},
		{"a quoted entry", "uvx", []string{`PATH="` + other + `";` + dir}, filepath.Join(other, "uvx.exe"), nil},
		{"PATHEXT's order decides", "both", []string{"PATH=" + dir, "PATHEXT=.CMD;.EXE"}, filepath.Join(dir, "both.cmd"), nil},
		{"the default PATHEXT tries .exe before .cmd", "both", []string{"PATH=" + dir}, filepath.Join(dir, "both.exe"), nil},
		{"PATHEXT limits what runs", "npx", []string{"PATH=" + dir, "PATHEXT=.EXE"}, "", ErrCommandNotFound},
		{"PATHEXT entries without a dot", "npx", []string{"PATH=" + dir, "PATHEXT=cmd"}, filepath.Join(dir, "npx.cmd"), nil},
		{"a file without an extension is not a program", "noext", []string{"PATH=" + dir}, "", ErrCommandNotFound},
		{"a named extension outside PATHEXT is found as given", "script.py", []string{"PATH=" + dir}, filepath.Join(dir, "script.py"), nil},
		{"a path gets PATHEXT's extensions", filepath.Join(dir, "npx"), nil, filepath.Join(dir, "npx.cmd"), nil},
		{"an absolute path where nothing is fails", filepath.Join(dir, "gone"), nil, "", ErrCommandNotFound},
		{"a drive path where nothing is fails", `C:\nothing\server.exe`, nil, "", ErrCommandNotFound},
		{"a relative path is left to the start", `bin\gone`, nil, `bin\gone`, nil},
		{"a drive-relative path is left to the start", `C:nothing`, nil, `C:nothing`, nil},
		{"relative entries are skipped", "npx", []string{"PATH=.;relative"}, "", ErrCommandNotFound},
		{"missing", "nope", []string{"PATH=" + dir}, "", ErrCommandNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rules.lookPath(tc.command, tc.env)
			if got != tc.want || !errors.Is(err, tc.err) {
				t.Fatalf("got %q, %v; want %q, %v", got, err, tc.want, tc.err)
			}
		})
	}
}

func TestSplitWindowsList(t *testing.T) {
	cases := []struct {
		name, list string
		want       []string
	}{
		{"plain", `C:\a;C:\b`, []string{`C:\a`, `C:\b`}},
		{"quoted with a semicolon", `"C:\a;b";C:\c`, []string{`C:\a;b`, `C:\c`}},
		{"empty entries stay", `;C:\a;`, []string{"", `C:\a`, ""}},
		{"empty", "", []string{""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := splitWindowsList(tc.list); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzSplitWindowsList: no quote survives, and there is one entry more
// than there are semicolons outside quotes.
func FuzzSplitWindowsList(f *testing.F) {
	for _, seed := range []string{`C:\a;C:\b`, `"C:\a;b";C:\c`, `"unclosed;x`, ";;", ""} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, list string) {
		got := splitWindowsList(list)
		separators, quoted := 0, false
		for _, c := range list {
			switch {
			case c == '"':
				quoted = !quoted
			case c == ';' && !quoted:
				separators++
			}
		}
		if len(got) != separators+1 {
			t.Fatalf("%q: %d entries for %d separators", list, len(got), separators)
		}
		for _, dir := range got {
			if slices.Contains([]byte(dir), '"') {
				t.Fatalf("%q: entry %q keeps a quote", list, dir)
			}
		}
	})
}
