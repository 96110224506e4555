package retriever

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDisplayPath(t *testing.T) {
	cases := []struct {
		name, path, want string
	}{
		{"empty", "", ""},
		{"ascii", "/home/ann/notes.md", "/home/ann/notes.md"},
		{"utf-8", "/home/ann/café ☕.md", "/home/ann/café ☕.md"},
		{"windows", `C:\Users\ann\notes.md`, `C:\Users\ann\notes.md`},
		{"encoded replacement character", "/a/\uFFFD.txt", "/a/\uFFFD.txt"},
		{"two bad bytes", "/tmp/x/bad\xff\xfename.txt", `/tmp/x/bad\xff\xfename.txt`},
		{"latin-1 name", "/docs/r\xe9sum\xe9.txt", `/docs/r\xe9sum\xe9.txt`},
		{"lone continuation byte", "\x80", `\x80`},
		{"cut character", "/a/caf\xc3", `/a/caf\xc3`},
		{"surrogate half", "/a/\xed\xa0\x80", `/a/\xed\xa0\x80`},
		{"bad byte before a good character", "\xffé", `\xffé`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := DisplayPath(c.path); got != c.want {
				t.Errorf("DisplayPath(%q) = %q, want %q", c.path, got, c.want)
			}
		})
	}
}

func TestResultsDisplayPaths(t *testing.T) {
	res := &Results{Hits: []Hit{{Path: "a\xff", ChunkID: "a\xff#1.0", More: []Hit{{Path: "a\xff"}}}, {Path: "b"}}}
	res.DisplayPaths()
	if res.Hits[0].Path != `a\xff` || res.Hits[0].ChunkID != `a\xff#1.0` || res.Hits[0].More[0].Path != `a\xff` || res.Hits[1].Path != "b" {
		t.Errorf("paths after DisplayPaths: %+v", res.Hits)
	}
}

// FuzzDisplayPath checks that a shown path is valid UTF-8, that valid
// paths are shown as they are, and that a path without a literal `\x` is
// given back by reading the escapes.
func FuzzDisplayPath(f *testing.F) {
	for _, s := range []string{"", "/a/b.md", "bad\xff\xfename", "r\xe9sum\xe9", "\xed\xa0\x80", `C:\x\y`, "\xc3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got := DisplayPath(path)
		if !utf8.ValidString(got) {
			t.Fatalf("DisplayPath(%q) = %q, not UTF-8", path, got)
		}
		if utf8.ValidString(path) && got != path {
			t.Fatalf("DisplayPath(%q) = %q, want it unchanged", path, got)
		}
		if !strings.Contains(path, `\x`) {
			if back := unescapeBytes(t, got); back != path {
				t.Fatalf("DisplayPath(%q) = %q reads back as %q", path, got, back)
			}
		}
	})
}

// unescapeBytes turns each \xHH back into its byte.
func unescapeBytes(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], `\x`) && i+4 <= len(s) {
			n, err := strconv.ParseUint(s[i+2:i+4], 16, 8)
			if err != nil {
				t.Fatalf("bad escape in %q at %d", s, i)
			}
			b.WriteByte(byte(n))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
