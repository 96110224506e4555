package retriever

import (
	"errors"
	"fmt"
	"io"

	"github.com/ledongthuc/pdf"
)

// errOpenHexString is the one construct known to send the PDF parser into
// an endless loop: a hex string ("<...") still open when a content stream
// or character map ends. Streams are checked before they are interpreted.
var errOpenHexString = errors.New("unterminated hex string at the end of a stream")

// maxStreamScan bounds how much of one page's streams is checked.
const maxStreamScan = 64 << 20

// checkPageStreams scans what the parser will interpret for a page: its
// content streams and the ToUnicode maps of its fonts.
func checkPageStreams(p pdf.Page) error {
	if err := checkStream(p.V.Key("Contents")); err != nil {
		return fmt.Errorf("content stream: %w", err)
	}
	for _, name := range p.Fonts() {
		if err := checkStream(p.Font(name).V.Key("ToUnicode")); err != nil {
			return fmt.Errorf("font %s: %w", name, err)
		}
	}
	return nil
}

// checkStream reads a stream (or an array of streams, which the parser
// concatenates) and looks for an open hex string at its end.
func checkStream(v pdf.Value) error {
	var readers []io.Reader
	switch v.Kind() {
	case pdf.Stream:
		readers = append(readers, v.Reader())
	case pdf.Array:
		for i := range v.Len() {
			if s := v.Index(i); s.Kind() == pdf.Stream {
				readers = append(readers, s.Reader())
			}
		}
	}
	if len(readers) == 0 {
		return nil
	}
	data, err := io.ReadAll(io.LimitReader(io.MultiReader(readers...), maxStreamScan))
	if err != nil {
		return fmt.Errorf("read: %w", err)
	}
	if endsInHexString(data) {
		return errOpenHexString
	}
	return nil
}

// endsInHexString tokenizes data the way the parser's lexer does (strings,
// comments, dictionaries) and reports whether it ends inside a hex string.
func endsInHexString(data []byte) bool {
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '%':
			for i < len(data) && data[i] != '\r' && data[i] != '\n' {
				i++
			}
		case '(':
			i = skipLiteralString(data, i+1)
		case '<':
			if i+1 < len(data) && data[i+1] == '<' {
				i++
				continue
			}
			end, closed := skipHexString(data, i+1)
			if !closed {
				return true
			}
			i = end
		}
	}
	return false
}

// skipLiteralString returns the index of the ')' closing a literal string
// that starts at i (just after its '('), or len(data).
func skipLiteralString(data []byte, i int) int {
	depth := 1
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(data)
}

// skipHexString returns the index of the '>' closing a hex string that
// starts at i; closed is false when data ends first. It reads digit pairs
// as the parser does: a bad pair stops the parser with an error (not a
// hang), but running out of data while looking for either digit loops
// forever.
func skipHexString(data []byte, i int) (end int, closed bool) {
	next := func() (byte, bool) {
		for i < len(data) && isPDFSpace(data[i]) {
			i++
		}
		if i >= len(data) {
			return 0, false
		}
		i++
		return data[i-1], true
	}
	for {
		c, ok := next()
		if !ok {
			return len(data), false
		}
		if c == '>' {
			return i - 1, true
		}
		c2, ok := next()
		if !ok {
			return len(data), false
		}
		if !isHexDigit(c) || !isHexDigit(c2) {
			return i - 1, true
		}
	}
}

func isPDFSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
