package retriever

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	xunicode "golang.org/x/text/encoding/unicode"
)

// decodeText turns file content into UTF-8 text by decoding it: UTF-8
// (with or without a byte order mark), UTF-16 with a byte order mark, and
// otherwise Windows-1252 (a superset of the printable Latin-1). Content
// that decodes to many control characters, or holds NUL bytes without a
// UTF-16 mark, is binary and gives a skipError.
func decodeText(data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		return validText(string(data[3:])), nil
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return decodeWith(xunicode.UTF16(xunicode.LittleEndian, xunicode.ExpectBOM), data, "UTF-16")
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return decodeWith(xunicode.UTF16(xunicode.BigEndian, xunicode.ExpectBOM), data, "UTF-16")
	}
	if bytes.IndexByte(data[:min(len(data), 8<<10)], 0) >= 0 {
		return "", skipf("binary content (NUL bytes)")
	}
	if utf8.Valid(data) {
		return checkControls(string(data), "UTF-8")
	}
	return decodeWith(charmap.Windows1252, data, "Windows-1252")
}

func decodeWith(enc encoding.Encoding, data []byte, name string) (string, error) {
	out, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", skipf("not valid %s text: %v", name, err)
	}
	return checkControls(validText(string(out)), name)
}

// checkControls rejects text in which over 1% of the first 8 KiB's
// characters are control characters other than tab, newline, carriage
// return and form feed, or the replacement character.
func checkControls(s, name string) (string, error) {
	head := s[:min(len(s), 8<<10)]
	bad, total := 0, 0
	for _, r := range head {
		total++
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' && r != '\f') {
			bad++
		}
	}
	if bad*100 > total {
		return "", skipf("binary content (%d of %d characters are control codes as %s)", bad, total, name)
	}
	return s, nil
}
