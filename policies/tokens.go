package policies

import (
	"math"
	"unicode/utf8"
)

// TokenCounter counts the tokens of a text as the orchestrator's tokenizer
// would. The reference cuts with the Qwen3-8B tokenizer; a backend's
// /tokenize endpoint is the exact way (llm.Tokenizer, which the daemon
// gives the planner), EstimateCounter the offline one.
type TokenCounter interface {
	Count(text string) int
}

// TailKeeper is an optional TokenCounter extension that cuts a text to its
// last n tokens in one step. Without it, cuts search with Count.
type TailKeeper interface {
	KeepTail(text string, n int) string
}

// EstimateCounter estimates ~3 bytes of UTF-8 per token with a 10% margin
// (2.7 bytes per token), which over-counts English for Qwen3 (~4 characters
// per token) and roughly matches CJK (3 bytes, about one token). Over-counting
// makes cuts keep a little less than the budget, never more.
type EstimateCounter struct{}

const estimateBytesPerTokenX10 = 27

// Count implements TokenCounter.
func (EstimateCounter) Count(text string) int {
	return (len(text)*10 + estimateBytesPerTokenX10 - 1) / estimateBytesPerTokenX10
}

// KeepTail implements TailKeeper: the longest suffix, starting on a rune
// boundary, whose estimate is at most n.
func (EstimateCounter) KeepTail(text string, n int) string {
	if n <= 0 {
		return ""
	}
	maxBytes := n * estimateBytesPerTokenX10 / 10
	if len(text) <= maxBytes {
		return text
	}
	start := len(text) - maxBytes
	for start < len(text) && !utf8.RuneStart(text[start]) {
		start++
	}
	return text[start:]
}

// DefaultCounter is the counter used when none is configured.
func DefaultCounter() TokenCounter { return EstimateCounter{} }

// keepTail cuts text to its last n tokens ("every cut keeps the tail").
func keepTail(c TokenCounter, text string, n int) string {
	if n <= 0 || text == "" {
		return ""
	}
	if k, ok := c.(TailKeeper); ok {
		return k.KeepTail(text, n)
	}
	whole := c.Count(text)
	if whole <= n {
		return text
	}
	return searchTail(c, text, n, whole)
}

// searchTail finds the longest suffix, starting on a rune, whose count is
// at most n; whole is the count of all of text (more than n). It assumes a
// suffix never counts more than a longer suffix, which holds for
// tokenizers up to merge effects at the cut.
//
// Each count may be a request to the model server's /tokenize with a long
// text, so the search interpolates (regula falsi, Illinois variant) rather
// than halving: tokens are spread nearly evenly over a text, so the first
// guess lands close and a 100,000-character cut takes a handful of counts
// where bisection takes 17. Every step still narrows the bracket, and a
// step that fails to halve it is followed by a halving, so the worst case
// stays within twice bisection's count.
func searchTail(c TokenCounter, text string, n, whole int) string {
	starts := runeStarts(text)
	target := float64(n) + 0.5 // between "too many" and "fits"
	// lo: a suffix known to count more than n; hi: one known to fit (the
	// empty suffix at first). The answer is hi once they are adjacent.
	lo, hi := 0, len(starts)
	over, under := float64(whole)-target, -target
	kept, bisect := 0, false // kept: the side kept by the last step (-1 lo, +1 hi)
	for hi-lo > 1 {
		width := hi - lo
		mid := lo + width/2
		if !bisect {
			mid = lo + int(math.Round(over/(over-under)*float64(width)))
			mid = min(max(mid, lo+1), hi-1)
		}
		got := float64(c.Count(text[starts[mid]:])) - target
		if got > 0 {
			lo, over = mid, got
			if kept == +1 {
				under /= 2 // hi kept twice: pull the next guess toward it
			}
			kept = +1
		} else {
			hi, under = mid, got
			if kept == -1 {
				over /= 2
			}
			kept = -1
		}
		bisect = !bisect && hi-lo > width/2
	}
	if hi == len(starts) {
		return ""
	}
	return text[starts[hi]:]
}

func runeStarts(text string) []int {
	starts := make([]int, 0, len(text))
	for i := range text {
		starts = append(starts, i)
	}
	return starts
}

// firstRunes is Python's text[:n] on code points.
func firstRunes(text string, n int) string {
	count := 0
	for i := range text {
		if count == n {
			return text[:i]
		}
		count++
	}
	return text
}
