package policies

import (
	"strings"
	"unicode/utf8"
)

// Limits of the search expert's query (reference).
const (
	maxQueryChars = 390
	minQueryChars = 5
)

// ExtractQuery reads the search expert's reply: the text after the last
// <query> up to the next </query>; without tags, the whole reply after any
// think block. The query is trimmed and cut to 390 characters; under 5
// characters means no search (ok false).
func ExtractQuery(reply string) (string, bool) {
	q, tagged := lastTagged(reply, "<query>", "</query>")
	if !tagged {
		q = afterThink(reply)
	}
	q = strings.TrimSpace(firstRunes(strings.TrimSpace(q), maxQueryChars))
	if utf8.RuneCountInString(q) < minQueryChars {
		return "", false
	}
	return q, true
}

// ExtractPython reads the code expert's reply: the text after the last
// "```python" up to the next "```" (or the end of a truncated reply). No
// fence, or a blank one, means no code to run (hub rule; the reference would
// run the whole reply). The code is returned unchanged, newlines included.
func ExtractPython(reply string) (string, bool) {
	code, fenced := lastTagged(reply, "```python", "```")
	if !fenced || strings.TrimSpace(code) == "" {
		return "", false
	}
	return code, true
}

// ExtractBoxed reads a boxed-style answer: the content of the last \boxed{
// up to its matching brace, so \boxed{\frac{1}{2}} gives \frac{1}{2}.
// Escaped characters (\{, \}, \\) do not count as braces. When the braces
// never balance (a cut reply), it falls back to the reference rule: up to
// the last "}" after the opening. No \boxed{ gives an empty answer.
func ExtractBoxed(reply string) (string, bool) {
	const open = `\boxed{`
	i := strings.LastIndex(reply, open)
	if i < 0 {
		return "", false
	}
	rest := reply[i+len(open):]
	inner, balanced := balancedPrefix(rest)
	if !balanced {
		j := strings.LastIndex(rest, "}")
		if j < 0 {
			return "", false
		}
		inner = rest[:j]
	}
	inner = strings.TrimSpace(inner)
	return inner, inner != ""
}

// balancedPrefix returns the text before the "}" that closes an already open
// brace, skipping escaped characters.
func balancedPrefix(s string) (string, bool) {
	depth := 1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++ // the escaped byte never counts
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[:i], true
			}
		}
	}
	return "", false
}

// ExtractTagged reads a tagged-style answer: the text after the last
// <answer> up to the next </answer>, trimmed. No <answer> gives an empty
// answer.
func ExtractTagged(reply string) (string, bool) {
	a, tagged := lastTagged(reply, "<answer>", "</answer>")
	a = strings.TrimSpace(a)
	return a, tagged && a != ""
}

// lastTagged returns the text after the last open marker up to the next
// close marker (or the end when unclosed), and whether open occurs at all.
func lastTagged(text, open, close string) (string, bool) {
	i := strings.LastIndex(text, open)
	if i < 0 {
		return "", false
	}
	rest := text[i+len(open):]
	if j := strings.Index(rest, close); j >= 0 {
		rest = rest[:j]
	}
	return rest, true
}

// afterThink drops the think text of a Qwen3-style reply: everything up to
// the last </think>, or everything when a <think> was opened and never
// closed (the reply was cut while thinking).
func afterThink(text string) string {
	if i := strings.LastIndex(text, "</think>"); i >= 0 {
		return text[i+len("</think>"):]
	}
	if strings.HasPrefix(strings.TrimSpace(text), "<think>") {
		return ""
	}
	return text
}
