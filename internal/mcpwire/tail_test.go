package mcpwire

import (
	"strings"
	"testing"
)

func TestTailBuffer(t *testing.T) {
	cases := []struct {
		name   string
		size   int
		writes []string
		want   string
	}{
		{"empty", 8, nil, ""},
		{"fits", 8, []string{"abc", "def"}, "abcdef"},
		{"drops the oldest", 8, []string{"abcdef", "ghij"}, "cdefghij"},
		{"one write larger than the buffer", 4, []string{"abcdefgh"}, "efgh"},
		{"exactly full", 4, []string{"ab", "cd"}, "abcd"},
		{"many small writes", 5, strings.Split("the quick brown fox", ""), "n fox"},
		{"cut inside a character", 5, []string{"aé€b"}, "€b"}, // é€ are 2 and 3 bytes
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := NewTail(tc.size)
			for _, w := range tc.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			if got := b.String(); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
