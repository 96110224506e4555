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
