package retriever

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// Word gaps are not characters in most PDFs: a line is drawn as several
// positioned runs (TJ arrays with kerning offsets, one Tj per word), and
// the space between two words is only a jump in the glyph positions. The
// parser's plain-text output concatenates the runs, gluing words together.
// layoutText rebuilds the gaps from the position and advance of each
// glyph instead.
const (
	// wordGap is the horizontal gap, as a fraction of the font size, past
	// which two glyphs on a line belong to different words. A space glyph
	// is about 0.25 em wide; kerning and tracking stay far below 0.1 em.
	wordGap = 0.15
	// lineJump is the vertical move, as a fraction of the font size, past
	// which a glyph starts a new line.
	lineJump = 0.5
)

// pageLayoutText is the text of a page with spaces between words and a
// newline between lines, in content-stream order.
func pageLayoutText(p pdf.Page) string {
	return layoutText(pageRuns(p))
}

// layoutText joins glyphs, inserting a space at word gaps and a newline
// where the baseline moves or the position jumps back along the line.
func layoutText(glyphs []pdf.Text) string {
	var b strings.Builder
	for i, g := range glyphs {
		if i > 0 {
			b.WriteString(glyphSeparator(glyphs[i-1], g))
		}
		b.WriteString(g.S)
	}
	return b.String()
}

// glyphSeparator is what goes between two consecutive glyphs.
func glyphSeparator(prev, g pdf.Text) string {
	size := math.Max(math.Max(math.Abs(prev.FontSize), math.Abs(g.FontSize)), 1)
	gap := g.X - (prev.X + prev.W)
	switch {
	case endsInSpace(prev.S) || startsWithSpace(g.S): // the parser's own breaks, or a space glyph
		return ""
	case math.Abs(g.Y-prev.Y) > lineJump*size:
		return "\n"
	case gap < -2*size: // back to the left margin: the next line or column
		return "\n"
	case gap > wordGap*size:
		return " "
	}
	return ""
}

func endsInSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && unicode.IsSpace(r)
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && unicode.IsSpace(r)
}
