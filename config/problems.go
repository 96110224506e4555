package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong with a configuration file. Line and Col are
// 1-based (Col counts bytes); both are 0 when the problem has no position.
type Problem struct {
	File    string
	Line    int
	Col     int
	Message string
}

// String formats the problem as file:line:col: message.
func (p Problem) String() string {
	switch {
	case p.Line > 0 && p.File != "":
		return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Message)
	case p.Line > 0:
		return fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)
	case p.File != "":
		return p.File + ": " + p.Message
	}
	return p.Message
}

// ProblemsError is every problem found in one file.
type ProblemsError struct {
	Problems []Problem
}

// Error prints one problem per line.
func (e *ProblemsError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// problemList collects problems for one file.
type problemList struct {
	file      string
	src       []byte
	problems  []Problem
	lineStart []int // offsets where lines begin, computed on first use
}

// at records a problem at byte offset off of the source.
func (l *problemList) at(off int, format string, args ...any) {
	l.add(l.pos(off), format, args...)
}

// add records a problem at a known position.
func (l *problemList) add(p position, format string, args ...any) {
	l.problems = append(l.problems, Problem{
		File: l.file, Line: p.line, Col: p.col, Message: fmt.Sprintf(format, args...),
	})
}

// err returns the sorted problems as a *ProblemsError, or nil.
func (l *problemList) err() error {
	if len(l.problems) == 0 {
		return nil
	}
	sortProblems(l.problems)
	return &ProblemsError{Problems: l.problems}
}

func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// pos turns a byte offset of the source into a 1-based line and byte column.
func (l *problemList) pos(off int) position {
	if l.lineStart == nil {
		l.lineStart = []int{0}
		for i, c := range l.src {
			if c == '\n' {
				l.lineStart = append(l.lineStart, i+1)
			}
		}
	}
	off = min(max(off, 0), len(l.src))
	line, found := slices.BinarySearch(l.lineStart, off)
	if !found {
		line--
	}
	return position{line: line + 1, col: off - l.lineStart[line] + 1}
}

// didYouMean returns ` (did you mean "x"?)` when one of the known names is
// close to got, and "" otherwise.
func didYouMean(got string, known []string) string {
	if len(got) > 64 {
		return ""
	}
	best, bestDist := "", -1
	for _, k := range known {
		d := editDistance(strings.ToLower(got), strings.ToLower(k))
		if bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	limit := max(1, len(got)/3)
	if bestDist < 0 || bestDist > limit {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the optimal string alignment distance between a and b,
// in bytes: insertions, deletions, substitutions and swaps of neighbours.
func editDistance(a, b string) int {
	rows := make([][]int, len(a)+1)
	for i := range rows {
		rows[i] = make([]int, len(b)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			rows[i][j] = min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				rows[i][j] = min(rows[i][j], rows[i-2][j-2]+1)
			}
		}
	}
	return rows[len(a)][len(b)]
}
