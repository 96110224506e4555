package policies

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// aliasWord matches a word shaped like an alias of the paper's pool
// ("answer-2", "answer-math-1", "expert-3"): a capability written for one
// alias may start with it (copied from the paper, or written when the
// models were fewer or in another order), in any case ("Search-1", the
// first word of a sentence).
var aliasWord = regexp.MustCompile(`(?i)^(search|reasoner|answer|expert)(-[a-z]+)*-\d+$`)

// capabilitySentence is the sentence the orchestrator reads about alias
// (protocol §3.1): it starts with the alias it describes, as the trained
// ones do ("answer-2 presents reasonable solutions in some tasks, ...").
// A capability that already starts with an alias-shaped word has that word
// replaced by alias; any other is put after alias, its first letter
// lowered unless the word is an acronym ("Answers simple questions well."
// becomes "answer-1 answers simple questions well."). An empty capability
// gives no sentence.
func capabilitySentence(alias, capability string) string {
	c := strings.TrimSpace(capability)
	if c == "" {
		return ""
	}
	first, rest, _ := strings.Cut(c, " ")
	if aliasWord.MatchString(strings.TrimRight(first, ":,")) {
		c = strings.TrimSpace(rest)
		if c == "" {
			return ""
		}
		return alias + " " + c
	}
	return alias + " " + lowerFirst(c)
}

// withoutLeadingName drops a leading word that names the model (its entry
// name or model id) from a configured capability: the orchestrator is
// never shown real model names (protocol §3.1 hub rule), and the alias
// takes the name's place.
func withoutLeadingName(capability string, names ...string) string {
	c := strings.TrimSpace(capability)
	first, rest, _ := strings.Cut(c, " ")
	first = strings.TrimRight(first, ":,")
	for _, n := range names {
		if n != "" && (strings.EqualFold(first, n) || strings.EqualFold(first, lastSegment(n))) {
			return strings.TrimSpace(rest)
		}
	}
	return c
}

func lastSegment(id string) string {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		return id[i+1:]
	}
	return id
}

// lowerFirst lowers the first letter of s unless the next one is upper case
// too ("GPU", "JSON").
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(r) {
		return s
	}
	if next, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(next) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}
