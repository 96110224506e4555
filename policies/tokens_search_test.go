package policies

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolhub/toolhub/internal/testenv"
)

// wordCounter counts like a byte-pair tokenizer on English, closely enough
// for a search: a word (with the space before it) is one token per 4
// bytes or part of them, and each other mark is a token of its own. A
// suffix never counts more than a longer one. It records how often it was
// asked, as the model server's /tokenize would be.
type wordCounter struct{ calls int }

func (c *wordCounter) Count(text string) int {
	c.calls++
	tokens, run := 0, 0
	flush := func() {
		tokens += (run + 3) / 4
		run = 0
	}
	for _, r := range text {
		switch {
		case r == ' ' || r == '\n':
			flush()
			run = 1
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r >= 0x80:
			run++
		default:
			flush()
			tokens++
		}
	}
	flush()
	return tokens
}

// prose is n bytes or so of word-like text with punctuation and some
// accented letters, from a fixed seed.
func prose(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	words := []string{"the", "protein", "binds", "a", "receptor", "in", "mice", "été", "data", "of",
		"2,047", "patients", "(p < 0.05)", "shows", "that", "naïve", "cells", "respond;", "so", "transcription"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(words[rng.IntN(len(words))])
		if rng.IntN(12) == 0 {
			b.WriteString(".\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// bisectTail is the plain binary search over rune starts the interpolating
// search must agree with.
func bisectTail(c TokenCounter, text string, n int) string {
	starts := runeStarts(text)
	lo, hi := 0, len(starts)
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

// The cut keeps exactly the suffix bisection keeps (the longest within the
// budget) with far fewer counts: each is a /tokenize request for a long
// text when the model server counts.
func TestSearchTailInterpolates(t *testing.T) {
	tests := []struct {
		name     string
		size     int
		budget   int
		maxCalls int // bisection takes log2 of the rune count: 14 to 19 here
	}{
		{"short text, tight budget", 20_000, 100, 12},
		{"research context", 150_000, 26_000, 10},
		{"most of the text fits", 100_000, 24_000, 10},
		{"code and attempts", 60_000, 12_000, 10},
		{"a few tokens", 100_000, 3, 10},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := prose(uint64(i), tt.size)
			var c wordCounter
			whole := c.Count(text)
			if whole <= tt.budget {
				t.Fatalf("text of %d tokens fits the budget %d", whole, tt.budget)
			}
			c.calls = 0
			got := searchTail(&c, text, tt.budget, whole)
			calls := c.calls
			want := bisectTail(&wordCounter{}, text, tt.budget)
			if got != want {
				t.Fatalf("kept %d bytes (%d tokens), bisection keeps %d bytes (%d tokens)",
					len(got), c.Count(got), len(want), c.Count(want))
			}
			if !utf8.ValidString(got) || c.Count(got) > tt.budget {
				t.Errorf("cut is not valid text within the budget: %d tokens", c.Count(got))
			}
			if calls > tt.maxCalls {
				t.Errorf("%d counts for a %d-byte text, want at most %d", calls, len(text), tt.maxCalls)
			}
			t.Logf("%d counts (bisection: %d)", calls, bisectCalls(text, tt.budget))
		})
	}
}

// Across budgets, on a monotone counter, the cut is the longest suffix
// within the budget: the one bisection finds.
func TestSearchTailAgreesWithBisection(t *testing.T) {
	text := prose(3, 6_000)
	var c wordCounter
	whole := c.Count(text)
	for n := 1; n < whole; n += 13 {
		if got, want := searchTail(&c, text, n, whole), bisectTail(&c, text, n); got != want {
			t.Fatalf("n=%d: kept %q, want %q", n, firstRunes(got, 40), firstRunes(want, 40))
		}
	}
}

// On real documents (SciFact abstracts laid out as research mode's
// context lays out search hits, read from ../shared/data) a cut to the
// reference's budgets takes at most 10 counts where bisection takes 16 to
// 19, and keeps the same tail. -v prints each case's counts.
func TestSearchTailOnSciFact(t *testing.T) {
	path := filepath.Join(testenv.RepoRoot(t), "..", "shared", "data", "beir", "scifact", "corpus.jsonl.gz")
	abstracts := sciFactAbstracts(t, path, 400)
	for _, docs := range []int{60, 150, 400} {
		var b strings.Builder
		for i, a := range abstracts[:docs] {
			fmt.Fprintf(&b, "Doc %d: %s ...\n\n", i+1, firstRunes(a, 1200))
		}
		text := b.String()
		for _, budget := range []int{8000, 12000, 26000} {
			var c wordCounter
			whole := c.Count(text)
			if whole <= budget {
				continue
			}
			c.calls = 0
			got := searchTail(&c, text, budget, whole)
			calls := c.calls
			var bisect wordCounter
			if want := bisectTail(&bisect, text, budget); got != want {
				t.Errorf("%d docs, budget %d: kept %d bytes, bisection %d", docs, budget, len(got), len(want))
			}
			t.Logf("%d docs, %d bytes, %d tokens, budget %d: %d counts, bisection %d", docs, len(text), whole, budget, calls, bisect.calls)
			if calls > 10 {
				t.Errorf("%d docs, budget %d: %d counts, want at most 10", docs, budget, calls)
			}
		}
	}
}

// sciFactAbstracts reads the first n abstracts of SciFact's corpus.
func sciFactAbstracts(t *testing.T, path string, n int) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("SciFact not found (../shared/data/beir/scifact beside the repository): %v", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(gz)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out []string
	for len(out) < n && sc.Scan() {
		var doc struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		out = append(out, doc.Text)
	}
	if len(out) < n {
		t.Fatalf("%s: %d abstracts, want %d (%v)", path, len(out), n, sc.Err())
	}
	return out
}

func bisectCalls(text string, n int) int {
	var c wordCounter
	bisectTail(&c, text, n)
	return c.calls
}

// A counter that is not monotone (merges at the cut can make a longer
// suffix count less) still gets a suffix within the budget, never a
// panic or an endless search.
func TestSearchTailSurvivesAnUnevenCounter(t *testing.T) {
	text := prose(7, 30_000)
	for _, n := range []int{1, 50, 999, 4000} {
		c := jumpyCounter{}
		got := searchTail(c, text, n, c.Count(text))
		if c.Count(got) > n || !strings.HasSuffix(text, got) || !utf8.ValidString(got) {
			t.Errorf("n=%d: cut of %d bytes counts %d", n, len(got), c.Count(got))
		}
	}
}

// jumpyCounter counts a byte each, less one for each "th" pair when the
// length is odd: longer suffixes sometimes count less.
type jumpyCounter struct{}

func (jumpyCounter) Count(text string) int {
	n := len(text)
	if n%2 == 1 {
		n -= strings.Count(text, "th")
	}
	return n
}
