package retriever

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
	"unicode"
	"unicode/utf8"
)

// snippetBytes is the length of a snippet window, before highlighting.
const snippetBytes = 240

// snippet picks the window of text with the most query terms and marks
// each matching word in **bold**. Words match after analysis, so "running"
// in the text matches "run" in the query. Without a match it is the start
// of the text.
func (f *fulltext) snippet(text string, terms map[string]bool, width int) string {
	marks := f.matches(text, terms)
	from := 0
	best := 0
	for i, m := range marks {
		n := 0
		for _, o := range marks[i:] {
			if o.end-m.start > width {
				break
			}
			n++
		}
		if n > best {
			best, from = n, max(0, m.start-width/5)
		}
	}
	from = wordStart(text, from)
	to := wordEnd(text, min(len(text), from+width))
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := from
	for _, m := range marks {
		if m.start < pos || m.end > to {
			continue
		}
		b.WriteString(text[pos:m.start])
		b.WriteString("**" + text[m.start:m.end] + "**")
		pos = m.end
	}
	b.WriteString(text[pos:to])
	if to < len(text) {
		b.WriteString("…")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// span is a byte range of a text.
type span struct{ start, end int }

// matches finds the words of text whose analysed form is a query term.
// Analysing every word of every hit would dominate search time, so only
// words that share a short prefix with some term are analysed: stemming
// rewrites the end of a word, never its first letters.
func (f *fulltext) matches(text string, terms map[string]bool) []span {
	prefixes := map[string]bool{}
	for t := range terms {
		prefixes[t[:max(1, min(len(t)-1, 3))]] = true
	}
	verdict := map[string]bool{}
	var marks []span
	for _, w := range words(text) {
		word := text[w.start:w.end]
		if !hasAnyPrefix(word, prefixes) {
			continue
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
	}
	return marks
}

// hasAnyPrefix reports whether the lower-cased word starts with one of
// the prefixes (of up to 3 bytes).
func hasAnyPrefix(word string, prefixes map[string]bool) bool {
	var head [3]byte
	n := min(3, len(word))
	for i := range n {
		c := word[i]
		if c >= 0x80 {
			lower := strings.ToLower(word[:min(len(word), 16)])
			n = min(3, len(lower))
			copy(head[:], lower)
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		head[i] = c
	}
	for i := 1; i <= n; i++ {
		if prefixes[string(head[:i])] {
			return true
		}
	}
	return false
}

// words splits text into runs of letters and digits (an apostrophe
// between letters stays inside the word, as in "Bleve's").
func words(text string) []span {
	var out []span
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
			out = append(out, span{start, i})
			start = -1
		}
		i += size
	}
	if start >= 0 {
		out = append(out, span{start, len(text)})
	}
	return out
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

// wordStart moves i back to the start of the word (and rune) it is in.
func wordStart(text string, i int) int {
	for i > 0 && i < len(text) && !utf8.RuneStart(text[i]) {
		i--
	}
	for j := i; j > 0 && i-j < 32; {
		r, size := utf8.DecodeLastRuneInString(text[:j])
		if r == ' ' || r == '\n' || r == '\t' {
			return j
		}
		j -= size
	}
	return i
}

// wordEnd moves i forward to the end of the word (and rune) it is in.
func wordEnd(text string, i int) int {
	for i < len(text) && !utf8.RuneStart(text[i]) {
		i++
	}
	for j := i; j < len(text) && j-i < 32; {
		r, size := utf8.DecodeRuneInString(text[j:])
		if r == ' ' || r == '\n' || r == '\t' {
			return j
		}
		j += size
	}
	return i
}

// analyzeWord runs one word through the analyzer's token filters (the
// tokenizer, the costly part, is not needed for a single word).
func (f *fulltext) analyzeWord(word string) analysis.TokenStream {
	da, ok := f.analyzer.(*analysis.DefaultAnalyzer)
	if !ok {
		return f.analyzer.Analyze([]byte(word))
	}
	ts := analysis.TokenStream{{Term: []byte(word), Start: 0, End: len(word), Position: 1, Type: analysis.AlphaNumeric}}
	for _, tf := range da.TokenFilters {
		ts = tf.Filter(ts)
	}
	return ts
}
