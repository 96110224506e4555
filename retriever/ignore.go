package retriever

import (
	"regexp"
	"strings"
)

// ignoreRule is one compiled .gitignore pattern.
type ignoreRule struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// ignoreList holds the rules of one .gitignore file (or of the configured
// excludes); base is the folder they are relative to, slash-separated and
// relative to the walk root ("" for the root itself).
type ignoreList struct {
	base  string
	rules []ignoreRule
}

// parseIgnore compiles .gitignore text. It follows gitignore(5): '#'
// comments, '!' negation, a trailing '/' for folders only, patterns with a
// '/' anchored to base and others matching at any depth, '*', '?', '[...]'
// and '**'.
func parseIgnore(base, content string) *ignoreList {
	l := &ignoreList{base: base}
	for _, line := range strings.Split(content, "\n") {
		if r, ok := compileIgnore(line); ok {
			l.rules = append(l.rules, r)
		}
	}
	return l
}

func compileIgnore(line string) (ignoreRule, bool) {
	line = trimIgnoreLine(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	body := globToRegexp(line)
	if !anchored {
		body = "(?:.*/)?" + body
	}
	re, err := regexp.Compile("^" + body + "$")
	if err != nil {
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// trimIgnoreLine drops the line ending and unescaped trailing spaces.
func trimIgnoreLine(line string) string {
	line = strings.TrimSuffix(line, "\r")
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	return line
}

// globToRegexp translates a gitignore glob into a regular expression body.
func globToRegexp(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); {
		rest := glob[i:]
		switch {
		case strings.HasPrefix(rest, "**/") && (i == 0 || glob[i-1] == '/'):
			b.WriteString("(?:.*/)?")
			i += 3
		case rest == "**" && (i == 0 || glob[i-1] == '/'):
			b.WriteString(".*")
			i += 2
		case rest[0] == '*':
			b.WriteString("[^/]*")
			i++
		case rest[0] == '?':
			b.WriteString("[^/]")
			i++
		case rest[0] == '[':
			class, n := bracketClass(rest)
			b.WriteString(class)
			i += n
		case rest[0] == '\\' && len(rest) > 1:
			b.WriteString(regexp.QuoteMeta(rest[1:2]))
			i += 2
		default:
			b.WriteString(regexp.QuoteMeta(rest[:1]))
			i++
		}
	}
	return b.String()
}

// bracketClass translates "[...]" at the start of s; an unclosed bracket
// is a literal '['. It returns the regexp text and the bytes consumed.
func bracketClass(s string) (string, int) {
	end := 1
	if end < len(s) && (s[end] == '!' || s[end] == '^') {
		end++
	}
	if end < len(s) && s[end] == ']' {
		end++
	}
	for end < len(s) && s[end] != ']' {
		end++
	}
	if end >= len(s) {
		return `\[`, 1
	}
	inner := s[1:end]
	negate := strings.HasPrefix(inner, "!") || strings.HasPrefix(inner, "^")
	if negate {
		inner = inner[1:]
	}
	inner = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(inner)
	if negate {
		return "[^/" + inner + "]", end + 1
	}
	return "[" + inner + "]", end + 1
}

// match applies the rules to rel (slash-separated, relative to the walk
// root). It reports whether a rule matched and, if so, whether the last
// matching rule ignores the path.
func (l *ignoreList) match(rel string, isDir bool) (matched, ignored bool) {
	if l.base != "" {
		if !strings.HasPrefix(rel, l.base+"/") {
			return false, false
		}
		rel = rel[len(l.base)+1:]
	}
	for _, r := range l.rules {
		if r.dirOnly && !isDir {
			continue
		}
		if r.re.MatchString(rel) {
			matched, ignored = true, !r.negate
		}
	}
	return matched, ignored
}

// ignoreStack is the ignore lists in force at one point of a walk,
// outermost first; later lists take precedence.
type ignoreStack []*ignoreList

func (s ignoreStack) ignored(rel string, isDir bool) bool {
	ignored := false
	for _, l := range s {
		if m, ig := l.match(rel, isDir); m {
			ignored = ig
		}
	}
	return ignored
}
