package policies

import (
	"maps"
	"strings"
	"testing"
)

// runeGrams is the plain definition of the character block's n-grams: the
// 3- to 5-rune substrings of each lower-cased token padded with spaces.
func runeGrams(text string) map[string]int {
	counts := map[string]int{}
	for _, tok := range strings.Fields(strings.ToLower(text)) {
		r := []rune(" " + tok + " ")
		for n := 3; n <= 5; n++ {
			for i := 0; i+n <= len(r); i++ {
				counts[string(r[i:i+n])]++
			}
		}
	}
	return counts
}

func TestCharGrams(t *testing.T) {
	cases := []struct {
		name string
		text string
		want map[string]int
	}{
		{"a short word is one padded gram", "Hi", map[string]int{" hi": 1, "hi ": 1, " hi ": 1}},
		{"repeats count", "ab ab", map[string]int{" ab": 2, "ab ": 2, " ab ": 2}},
		{"runes, not bytes", "Ωé", map[string]int{" ωé": 1, "ωé ": 1, " ωé ": 1}},
		{"blank text has none", " \n\t", map[string]int{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := charGramCounts(tc.text); !maps.Equal(got, tc.want) {
				t.Fatalf("grams %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzCharGrams checks the n-grams cut from one copy of each token are the
// runes' own, whatever the text holds (invalid UTF-8 included).
func FuzzCharGrams(f *testing.F) {
	for _, s := range []string{"def f(x):\n  return x**2", "Ωmega İstanbul ß", "a\xffb \xc3", "Q: (A) 1 (B) 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := charGramCounts(text), runeGrams(text); !maps.Equal(got, want) {
			t.Fatalf("%q: grams %v, want %v", text, got, want)
		}
	})
}
