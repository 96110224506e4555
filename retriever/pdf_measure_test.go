package retriever

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
)

// oldPDFText is the extraction used before: the parser's plain text.
func oldPDFText(data []byte) string {
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return ""
	}
	pages, _ := collectPages(r.Trailer().Key("Root").Key("Pages"))
	var b strings.Builder
	for _, p := range pages {
		s, _ := p.GetPlainText(nil)
		b.WriteString(strings.TrimSpace(s) + "\n\n")
	}
	return b.String()
}

// wordRe and tagRe cut text into words and HTML into text.
var wordRe = regexp.MustCompile(`[a-z]+`)
var tagRe = regexp.MustCompile(`(?s)<[^>]*>`)

// vocab is the set of words of four letters or more.
func vocab(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range wordRe.FindAllString(strings.ToLower(s), -1) {
		if len(w) >= 4 {
			m[w] = true
		}
	}
	return m
}

// TestPDFWordsOnSystemManuals measures the PDFs Debian installs under
// /usr/share/doc against the old plain-text extraction: words per 100
// characters, and the share of the terms of the HTML edition of the same
// manual that the PDF text yields. Set TOOLHUB_PDF_MEASURE=1 to run it.
func TestPDFWordsOnSystemManuals(t *testing.T) {
	if os.Getenv("TOOLHUB_PDF_MEASURE") == "" {
		t.Skip("set TOOLHUB_PDF_MEASURE=1 to measure the PDFs under /usr/share/doc")
	}
	cases := [][2]string{
		{"/usr/share/doc/zlib1g-dev/crc-doc.1.0.pdf.gz", ""},
		{"/usr/share/doc/nettle-dev/nettle.pdf.gz", "/usr/share/doc/nettle-dev/nettle.html"},
		{"/usr/share/doc/fontconfig/fontconfig-user.pdf.gz", "/usr/share/doc/fontconfig/fontconfig-user.html"},
		{"/usr/share/doc/libtasn1-doc/libtasn1.pdf", ""},
		{"/usr/share/doc/valgrind/valgrind_manual.pdf.gz", ""},
		{"/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf", "/usr/share/doc/shared-mime-info/shared-mime-info-spec.html"},
		{"/usr/share/doc/bzip2/manual.pdf.gz", "/usr/share/doc/bzip2/manual.html"},
	}
	for _, c := range cases {
		raw, err := os.ReadFile(c[0])
		if err != nil {
			t.Log(err)
			continue
		}
		if strings.HasSuffix(c[0], ".gz") {
			zr, _ := gzip.NewReader(bytes.NewReader(raw))
			raw, _ = io.ReadAll(zr)
		}
		old := oldPDFText(raw)
		_, now, err := pdfText(raw)
		if err != nil {
			t.Logf("%s: %v", c[0], err)
		}
		wp := func(s string) float64 { return 100 * float64(len(strings.Fields(s))) / float64(max(1, len([]rune(s)))) }
		line := fmt.Sprintf("%-45s chars %8d→%8d  words/100ch %5.2f→%5.2f", c[0][15:], len(old), len(now), wp(old), wp(now))
		if c[1] != "" {
			h, _ := os.ReadFile(c[1])
			ref := vocab(tagRe.ReplaceAllString(string(h), " "))
			vo, vn := vocab(old), vocab(now)
			ho, hn := 0, 0
			for w := range ref {
				if vo[w] {
					ho++
				}
				if vn[w] {
					hn++
				}
			}
			if len(ref) > 0 {
				line += fmt.Sprintf("  term recall %.3f→%.3f (%d terms)", float64(ho)/float64(len(ref)), float64(hn)/float64(len(ref)), len(ref))
				if float64(hn) < 0.9*float64(len(ref)) {
					t.Errorf("%s: term recall %d of %d", c[0], hn, len(ref))
				}
			}
		}
		t.Log(line)
		if wp(now) < 10 {
			t.Errorf("%s: %.2f words per 100 characters", c[0], wp(now))
		}
	}
}
