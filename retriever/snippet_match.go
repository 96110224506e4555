package retriever

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// span is a byte range of a text.
type span struct{ start, end int }

// matches finds the words of text whose analysed form is a query term.
// Analysing every word of every hit would dominate search time, so only
// words that share a short prefix with some term are analysed: stemming
// rewrites the end of a word, never its first letters.
func (f *fulltext) matches(text string, terms map[string]bool) []span {
	filter := newPrefixFilter(terms)
	verdict := map[string]bool{}
	var marks []span
	eachWord(text, func(w span) {
		word := text[w.start:w.end]
		if !filter.admits(word) {
			return
		}
		lower := strings.ToLower(word)
		hit, seen := verdict[lower]
		if !seen {
			for _, tok := range f.analyzeWord(word) {
				hit = hit || terms[string(tok.Term)]
			}
			verdict[lower] = hit
		}
		if hit {
			marks = append(marks, w)
		}
	})
	return marks
}

// prefixFilter admits words that start with the first bytes of a term
// (all but the last byte, at most three).
type prefixFilter struct {
	pairs    [1 << 16 / 64]uint64 // first two bytes seen in a prefix
	prefixes []string
}

func newPrefixFilter(terms map[string]bool) *prefixFilter {
	pf := &prefixFilter{}
	for t := range terms {
		p := t[:max(1, min(len(t)-1, 3))]
		pf.prefixes = append(pf.prefixes, p)
		if len(p) == 1 {
			for b := range 256 {
				pf.setPair(p[0], byte(b))
			}
			continue
		}
		pf.setPair(p[0], p[1])
	}
	return pf
}

func (pf *prefixFilter) setPair(a, b byte) {
	k := int(a)<<8 | int(b)
	pf.pairs[k/64] |= 1 << (k % 64)
}

func (pf *prefixFilter) hasPair(a, b byte) bool {
	k := int(a)<<8 | int(b)
	return pf.pairs[k/64]&(1<<(k%64)) != 0
}

func (pf *prefixFilter) admits(word string) bool {
	head := lowerHead(word)
	var second byte
	if len(head) > 1 {
		second = head[1]
	}
	if len(head) == 0 || !pf.hasPair(head[0], second) {
		return false
	}
	for _, p := range pf.prefixes {
		if strings.HasPrefix(head, p) {
			return true
		}
	}
	return false
}

// lowerHead is the first three bytes of the lower-cased word.
func lowerHead(word string) string {
	var head [3]byte
	n := min(3, len(word))
	for i := range n {
		c := word[i]
		if c >= utf8.RuneSelf {
			lower := strings.ToLower(word[:min(len(word), 16)])
			return lower[:min(3, len(lower))]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		head[i] = c
	}
	return string(head[:n])
}

// eachWord calls fn for every run of letters and digits in text (an
// apostrophe between letters stays inside the word, as in "Bleve's").
func eachWord(text string, fn func(span)) {
	start := -1
	for i := 0; i < len(text); {
		inWord, size := wordRuneAt(text, i)
		if !inWord && start >= 0 && (text[i] == '\'' || strings.HasPrefix(text[i:], "’")) &&
			i+size < len(text) && isLetterAt(text, i+size) {
			inWord = true
		}
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			fn(span{start, i})
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(span{start, len(text)})
	}
}

// wordRuneAt reports whether the rune at i is part of a word, and its size.
func wordRuneAt(text string, i int) (bool, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9', 1
	}
	r, size := utf8.DecodeRuneInString(text[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r), size
}

func isLetterAt(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return unicode.IsLetter(r)
}
