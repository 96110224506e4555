package retriever

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHTMLText(t *testing.T) {
	tests := []struct {
		name      string
		html      string
		wantTitle string
		want      []string // substrings, in order
		absent    []string
	}{
		{
			name:      "page structure",
			html:      `<html><head><title> Release  notes </title><style>p{color:red}</style></head><body><h1>Intro</h1><p>First <b>bold</b> para.</p><h2>Setup</h2><ul><li>one</li><li>two</li></ul></body></html>`,
			wantTitle: "Release notes",
			want:      []string{"# Intro", "First bold para.", "## Setup", "one", "two"},
			absent:    []string{"color:red"},
		},
		{
			name:   "scripts dropped, entities decoded",
			html:   `<p>a &amp; b &lt;c&gt;</p><script>var secret = "x";</script><noscript>enable js</noscript>`,
			want:   []string{"a & b <c>"},
			absent: []string{"secret", "enable js"},
		},
		{
			name: "pre kept as fenced code",
			html: "<p>before</p><pre>line 1\n# not a heading\n  indented</pre><p>after</p>",
			want: []string{"```\nline 1\n# not a heading\n  indented\n```", "after"},
		},
		{name: "unclosed tags", html: "<div><p>open <i>italic", want: []string{"open italic"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			title, text, err := htmlText([]byte(tc.html))
			if err != nil {
				t.Fatal(err)
			}
			if title != tc.wantTitle {
				t.Errorf("title = %q, want %q", title, tc.wantTitle)
			}
			pos := 0
			for _, w := range tc.want {
				i := strings.Index(text[pos:], w)
				if i < 0 {
					t.Fatalf("text %q lacks %q after offset %d", text, w, pos)
				}
				pos += i + len(w)
			}
			for _, a := range tc.absent {
				if strings.Contains(text, a) {
					t.Errorf("text %q contains %q", text, a)
				}
			}
		})
	}
}

func TestHTMLTextRejectsHugeToken(t *testing.T) {
	page := "<p>ok</p><div title=\"" + strings.Repeat("x", maxHTMLToken+10) + "\">"
	_, _, err := htmlText([]byte(page))
	if err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Fatalf("err = %v, want a clear size error", err)
	}
}

func TestPDFText(t *testing.T) {
	title, text, err := pdfText(makePDF("Quarterly (draft) report", "Revenue grew strongly", "Costs fell"))
	if err != nil {
		t.Fatal(err)
	}
	if title != "Quarterly (draft) report" {
		t.Errorf("title = %q", title)
	}
	for _, w := range []string{"Revenue grew strongly", "Costs fell"} {
		if !strings.Contains(text, w) {
			t.Errorf("text %q lacks %q", text, w)
		}
	}
}

func TestPDFTextMalformed(t *testing.T) {
	good := makePDF("t", "hello")
	tests := []struct {
		name string
		data []byte
	}{
		{"not a pdf", []byte("hello, I am plain text")},
		{"empty", nil},
		{"truncated", good[:len(good)/2]},
		{"garbled xref", []byte(strings.Replace(string(good), "xref", "xrfe", 1))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := pdfText(tc.data)
			if err == nil || !strings.HasPrefix(err.Error(), "pdf: ") {
				t.Fatalf("err = %v, want a pdf: error", err)
			}
		})
	}
}

func TestExtractKinds(t *testing.T) {
	tests := []struct {
		name, path, data string
		kind, title      string
		skip             bool
	}{
		{name: "markdown title", path: "a/notes.md", data: "intro\n# Big Title\ntext", kind: KindMarkdown, title: "Big Title"},
		{name: "code", path: "main.go", data: "package main", kind: KindCode, title: "main.go"},
		{name: "unknown text", path: "LICENSE", data: "MIT", kind: KindText, title: "LICENSE"},
		{name: "binary by content", path: "blob", data: "ab\x00cd", skip: true},
		{name: "html", path: "x.html", data: "<title>T</title><p>p</p>", kind: KindHTML, title: "T"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ex, err := extract(tc.path, []byte(tc.data))
			var skip *skipError
			if tc.skip {
				if !errors.As(err, &skip) {
					t.Fatalf("err = %v, want a skip", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ex.kind != tc.kind || ex.title != tc.title {
				t.Errorf("kind, title = %q, %q; want %q, %q", ex.kind, ex.title, tc.kind, tc.title)
			}
		})
	}
}

func FuzzHTMLText(f *testing.F) {
	f.Add("<html><title>x</title><h2>h</h2><pre>a\n</pre><script>s</script></html>")
	f.Add("<p>unclosed <b>bold <i>both")
	f.Add("<<<>>>&amp;&#x0;&bogus;</ </>")
	f.Add("\xff\xfe<p>\x00</p>")
	f.Fuzz(func(t *testing.T, page string) {
		title, text, err := htmlText([]byte(page))
		if err != nil {
			return
		}
		if !utf8.ValidString(title) || !utf8.ValidString(text) {
			t.Fatalf("invalid UTF-8 out of %q", page)
		}
		checkChunks(t, text, chunkText(text, true, 200), 200)
	})
}

func FuzzPDFText(f *testing.F) {
	good := makePDF("Title", "page one text", "page two")
	f.Add(good)
	f.Add(good[:len(good)-40])
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF"))
	f.Add([]byte("%PDF-"))
	f.Fuzz(func(t *testing.T, data []byte) {
		title, text, err := pdfText(data) // must not panic or hang
		if err != nil {
			if !strings.HasPrefix(err.Error(), "pdf: ") {
				t.Fatalf("error without pdf context: %v", err)
			}
			return
		}
		if !utf8.ValidString(title) || !utf8.ValidString(text) {
			t.Fatal("invalid UTF-8 out of the extractor")
		}
	})
}
