package eval

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Grading methods.
const (
	MethodAuto    = "auto"    // exact, then numeric, then the judge when one is set
	MethodExact   = "exact"   // normalised exact match only
	MethodNumeric = "numeric" // numeric tolerance only
	MethodJudge   = "judge"   // the LLM judge only
)

// Grade is the score of one answer and how it was reached.
type Grade struct {
	Score  float64 `json:"score"` // 1 correct, 0 wrong
	Method string  `json:"method"`
}

// Grader scores answers against the known answer.
type Grader struct {
	Method    string  // MethodAuto when empty
	Tolerance float64 // relative; DefaultTolerance when zero
	Judge     *Judge  // optional; required by MethodJudge
}

// Grade scores answer for t.
func (g Grader) Grade(ctx context.Context, t Task, answer string) (Grade, error) {
	tol := g.Tolerance
	if tol == 0 {
		tol = DefaultTolerance
	}
	switch g.Method {
	case MethodExact:
		return Grade{Score: boolScore(ExactMatch(t.Answer, answer)), Method: MethodExact}, nil
	case MethodNumeric:
		return Grade{Score: boolScore(NumericMatch(t.Answer, answer, tol)), Method: MethodNumeric}, nil
	case MethodJudge:
		if g.Judge == nil {
			return Grade{}, fmt.Errorf("grading by judge needs a judge model")
		}
		return g.Judge.Grade(ctx, t, answer)
	case "", MethodAuto:
		return g.auto(ctx, t, answer, tol)
	}
	return Grade{}, fmt.Errorf("unknown grading method %q", g.Method)
}

func (g Grader) auto(ctx context.Context, t Task, answer string, tol float64) (Grade, error) {
	if ExactMatch(t.Answer, answer) {
		return Grade{Score: 1, Method: MethodExact}, nil
	}
	if _, numeric := ParseNumber(t.Answer); numeric {
		// The numeric match stands in for the judge here, so it keeps the
		// judge's length rule: a long text whose last number happens to be
		// the answer is not an answer.
		ok := len(strings.Fields(answer)) <= MaxJudgedWords && NumericMatch(t.Answer, answer, tol)
		return Grade{Score: boolScore(ok), Method: MethodNumeric}, nil
	}
	if g.Judge != nil && strings.TrimSpace(answer) != "" {
		return g.Judge.Grade(ctx, t, answer)
	}
	return Grade{Score: 0, Method: MethodExact}, nil
}

func boolScore(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// ExactMatch compares after Normalize.
func ExactMatch(want, got string) bool {
	w := Normalize(want)
	return w != "" && w == Normalize(got)
}

// NumericMatch parses want as a number and got as a number (or, failing
// that, the last number written in got) and compares within tol.
func NumericMatch(want, got string, tol float64) bool {
	w, ok := ParseNumber(want)
	if !ok {
		return false
	}
	g, ok := ParseNumber(got)
	if !ok {
		g, ok = LastNumber(got)
	}
	return ok && NumbersMatch(w, g, tol)
}

// Normalize lower-cases text, drops punctuation and the articles a, an and
// the, and collapses whitespace (the usual QA exact-match normalisation).
// A decimal point or thousands comma between digits is kept, so "3.5" stays
// distinct from "35".
func Normalize(text string) string {
	runes := []rune(strings.ToLower(text))
	var b strings.Builder
	for i, r := range runes {
		switch {
		case unicode.IsPunct(r) || unicode.IsSymbol(r):
			if (r == '.' || r == ',') && betweenDigits(runes, i) {
				b.WriteRune(r)
			} else {
				b.WriteRune(' ')
			}
		default:
			b.WriteRune(r)
		}
	}
	words := strings.Fields(b.String())
	kept := words[:0]
	for _, w := range words {
		if w != "a" && w != "an" && w != "the" {
			kept = append(kept, w)
		}
	}
	return strings.Join(kept, " ")
}

func betweenDigits(r []rune, i int) bool {
	return i > 0 && i+1 < len(r) && unicode.IsDigit(r[i-1]) && unicode.IsDigit(r[i+1])
}
