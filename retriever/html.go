package retriever

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxHTMLToken bounds one tag or text run; a larger one is treated as a
// malformed file rather than buffered without limit.
const maxHTMLToken = 4 << 20

// htmlText extracts the title and readable text of an HTML page. Headings
// come out as Markdown headings ("## Setup") and <pre> blocks as fenced
// code, so the Markdown chunker keeps the page's structure; scripts,
// styles and other non-text elements are dropped.
func htmlText(data []byte) (title, text string, err error) {
	z := html.NewTokenizer(bytes.NewReader(data))
	z.SetMaxBuf(maxHTMLToken)
	w := htmlWriter{}
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if errors.Is(z.Err(), io.EOF) {
				return validText(strings.TrimSpace(w.title.String())), w.result(), nil
			}
			if errors.Is(z.Err(), html.ErrBufferExceeded) {
				return "", "", fmt.Errorf("html: a tag or text run exceeds %d MiB", maxHTMLToken>>20)
			}
			return "", "", fmt.Errorf("html: %w", z.Err())
		case html.TextToken:
			w.text(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			w.open(atom.Lookup(name), tt == html.SelfClosingTagToken)
		case html.EndTagToken:
			name, _ := z.TagName()
			w.close(atom.Lookup(name))
		}
	}
}

// htmlWriter accumulates the text of a page as the tokenizer walks it.
type htmlWriter struct {
	out     strings.Builder
	title   strings.Builder
	skip    int // depth inside elements whose text is not content
	inTitle bool
	pre     int
}

var skippedElems = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Svg: true, atom.Math: true, atom.Iframe: true, atom.Object: true, atom.Canvas: true,
}

var blockElems = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true, atom.Header: true,
	atom.Footer: true, atom.Nav: true, atom.Aside: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.Table: true, atom.Tr: true, atom.Blockquote: true,
	atom.Figure: true, atom.Figcaption: true, atom.Form: true, atom.Hr: true, atom.Address: true,
	atom.Details: true, atom.Summary: true, atom.Body: true,
}

var headingLevels = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

func (w *htmlWriter) open(a atom.Atom, selfClosing bool) {
	switch {
	case skippedElems[a]:
		if !selfClosing {
			w.skip++
		}
	case a == atom.Title:
		w.inTitle = !selfClosing
	case a == atom.Br:
		w.out.WriteString("\n")
	case a == atom.Pre:
		w.pre++
		w.out.WriteString("\n\n```\n")
	case headingLevels[a] > 0:
		w.out.WriteString("\n\n" + strings.Repeat("#", headingLevels[a]) + " ")
	case a == atom.Td || a == atom.Th:
		w.out.WriteString(" ")
	case blockElems[a]:
		w.out.WriteString("\n\n")
	}
}

func (w *htmlWriter) close(a atom.Atom) {
	switch {
	case skippedElems[a]:
		w.skip = max(0, w.skip-1)
	case a == atom.Title:
		w.inTitle = false
	case a == atom.Pre && w.pre > 0:
		w.pre--
		w.out.WriteString("\n```\n\n")
	case headingLevels[a] > 0 || blockElems[a]:
		w.out.WriteString("\n\n")
	}
}

var spaceRun = regexp.MustCompile(`\s+`)

func (w *htmlWriter) text(s string) {
	switch {
	case w.skip > 0:
	case w.inTitle:
		w.title.WriteString(spaceRun.ReplaceAllString(s, " "))
	case w.pre > 0:
		w.out.WriteString(s)
	default:
		w.out.WriteString(spaceRun.ReplaceAllString(s, " "))
	}
}

var blankLines = regexp.MustCompile(`[ \t]*\n(?:[ \t]*\n)+`)

// result is the page text with runs of blank lines folded to one.
func (w *htmlWriter) result() string {
	s := blankLines.ReplaceAllString(w.out.String(), "\n\n")
	return validText(strings.TrimSpace(s))
}
