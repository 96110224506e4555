package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestTableCellsHoldNoControlCharacters(t *testing.T) {
	cases := []struct {
		name, cell, want string
	}{
		{"plain", "notes.md", "notes.md"},
		{"a newline in a file name", "a\nb.md", `a\nb.md`},
		{"a tab", "a\tb", `a\tb`},
		{"a carriage return and an escape", "x\r\x1b[31m", `x\r\x1b[31m`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			tab := newTable(&out, "PATH", "N")
			tab.row(tc.cell, "1")
			if err := tab.flush(); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if len(lines) != 2 || !strings.HasPrefix(lines[1], tc.want+" ") || !strings.HasSuffix(lines[1], "1") {
				t.Fatalf("table\n%s\nwant a header and one row starting %q", out.String(), tc.want)
			}
		})
	}
}

func TestErrorLineKeepsTheCause(t *testing.T) {
	long := "Post \"http://127.0.0.1:18801/v1/chat/completions\": dial tcp 127.0.0.1:18801: connect: connection refused"
	cases := []struct {
		name, in string
		n        int
		want     string
	}{
		{"short enough", "connection refused", 40, "connection refused"},
		{"folded onto one line", "a\n  b", 40, "a b"},
		{"long: start and cause kept", long, 60, "Post \"http://127.0.0….0.1:18801: connect: connection refused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := errorLine(tc.in, tc.n)
			if got != tc.want || len([]rune(got)) > tc.n {
				t.Errorf("errorLine = %q (%d runes), want %q", got, len([]rune(got)), tc.want)
			}
		})
	}
}
