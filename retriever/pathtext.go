package retriever

import (
	"strings"
	"unicode/utf8"
)

// The index keeps a path as the bytes the file system gave: in its keys,
// its chunk IDs and the full-text index, so that a file named with bytes
// that are not UTF-8 (a Latin-1 name on Linux, say) is one document, found
// again by the next refresh. Text meant for people and JSON cannot carry
// those bytes; DisplayPath writes them out.

// DisplayPath is path as valid UTF-8 text, for showing it: path itself
// when it is valid UTF-8, else path with each byte that is not part of a
// UTF-8 character written as \xHH (lower-case hex). A shown path is for
// reading; the index names its documents by their bytes.
func DisplayPath(path string) string {
	if utf8.ValidString(path) {
		return path
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(path) + 8)
	for i := 0; i < len(path); {
		r, size := utf8.DecodeRuneInString(path[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\x`)
			b.WriteByte(hex[path[i]>>4])
			b.WriteByte(hex[path[i]&0xf])
		} else {
			b.WriteString(path[i : i+size])
		}
		i += size
	}
	return b.String()
}

// DisplayPaths rewrites the path and chunk ID of every hit, and of the
// hits folded under them, with DisplayPath, for a result set about to be
// shown or encoded as JSON.
func (r *Results) DisplayPaths() { displayHitPaths(r.Hits) }

func displayHitPaths(hits []Hit) {
	for i := range hits {
		hits[i].Path = DisplayPath(hits[i].Path)
		hits[i].ChunkID = DisplayPath(hits[i].ChunkID)
		displayHitPaths(hits[i].More)
	}
}
