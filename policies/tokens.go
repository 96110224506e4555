package policies

import "unicode/utf8"

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
	if c.Count(text) <= n {
		return text
	}
	return searchTail(c, text, n)
}

// searchTail finds, by binary search over rune starts, the longest suffix
// whose count is at most n. It assumes a suffix never counts more than a
// longer suffix, which holds for tokenizers up to merge effects at the cut.
func searchTail(c TokenCounter, text string, n int) string {
	starts := runeStarts(text)
	lo, hi := 0, len(starts) // hi: the empty suffix, always within budget
	for lo < hi {
		mid := lo + (hi-lo)/2
		if c.Count(text[starts[mid]:]) <= n {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo == len(starts) {
		return ""
	}
	return text[starts[lo]:]
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
