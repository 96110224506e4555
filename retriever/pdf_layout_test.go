package retriever

import (
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// monoFont is a font with explicit glyph widths (600/1000 em for every
// printable character), as embedded fonts in real PDFs have.
var monoFont = "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /FirstChar 32 /LastChar 126 /Widths [" +
	strings.TrimSpace(strings.Repeat("600 ", 95)) + "] >>"

func TestPDFMultiRunLinesGetWordSpaces(t *testing.T) {
	// Word gaps made by kerning offsets in a TJ array, by Td moves between
	// Tj runs, and by a new line; and a kern inside a word, which is no gap.
	stream := strings.Join([]string{
		"BT /F1 10 Tf 72 720 Td [(Returns)-600(ASN1_SUCCESS)-600(if)-600(DER)-600(encoding)-600(OK)] TJ ET",
		"BT /F1 10 Tf 72 705 Td (the) Tj 24 0 Td (error) Tj 36 0 Td (code) Tj ET",
		"BT /F1 10 Tf 72 690 Td [(W)40(ord)-30(s)] TJ ET",
	}, "\n")
	data := makePDFStreams("Manual", monoFont, stream)
	_, text, err := pdfText(data)
	if err != nil {
		t.Fatal(err)
	}
	want := "Returns ASN1_SUCCESS if DER encoding OK\nthe error code\nWords"
	if text != want {
		t.Errorf("text = %q, want %q", text, want)
	}
}

func TestGlyphSeparator(t *testing.T) {
	g := func(x, y, w float64, s string) pdf.Text { return pdf.Text{FontSize: 10, X: x, Y: y, W: w, S: s} }
	for _, tc := range []struct {
		name      string
		prev, cur pdf.Text
		want      string
	}{
		{"adjacent glyphs", g(0, 0, 6, "a"), g(6, 0, 6, "b"), ""},
		{"tight kerning", g(0, 0, 6, "a"), g(6.5, 0, 6, "b"), ""},
		{"word gap", g(0, 0, 6, "a"), g(9, 0, 6, "b"), " "},
		{"gap after a space glyph", g(0, 0, 6, " "), g(9, 0, 6, "b"), ""},
		{"baseline moves", g(0, 0, 6, "a"), g(0, -12, 6, "b"), "\n"},
		{"superscript stays on the line", g(0, 0, 6, "a"), g(6, 3, 6, "2"), ""},
		{"back to the margin", g(300, 0, 6, "a"), g(72, 0, 6, "b"), "\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := glyphSeparator(tc.prev, tc.cur); got != tc.want {
				t.Errorf("separator = %q, want %q", got, tc.want)
			}
		})
	}
}
