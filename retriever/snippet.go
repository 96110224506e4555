package retriever

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis"
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
