package ui

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// contextT keeps the many small closures short.
type contextT = context.Context

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func nonEmpty(in []string) []string {
	out := in[:0:0]
	for _, s := range in {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// usd formats dollars with enough digits for cents and fractions of them.
func usd(v float64) string {
	switch {
	case v == 0:
		return "$0"
	case v < 0.01:
		return fmt.Sprintf("$%.4f", v)
	default:
		return fmt.Sprintf("$%.2f", v)
	}
}

// wall formats a duration for people: 850ms, 2.4s, 3m05s.
func wall(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// lastLines keeps the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func joinLines(items []string) string { return "\n" + strings.Join(items, "\n") }

// Plural says n things: "1 tool", "2 tools", "0 tools"; every count
// the window shows in words goes through it.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// statusText is a run status in words; forced says the fallback policy
// gave the answer.
func statusText(status string, forced bool) string {
	switch status {
	case "answered":
		if forced {
			return "answered by the fallback"
		}
		return "answered"
	case "no_answer":
		return "no answer"
	case "budget_exhausted":
		return "stopped at the budget"
	case "deadline":
		return "stopped at the time limit"
	}
	return status
}

// joinNames lists names for a sentence: "a", "a and b", "a, b and c".
func joinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
