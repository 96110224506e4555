package retriever

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// checkChunks asserts the chunker's invariants: in-order, non-overlapping
// chunks within maxBytes whose text is the slice at their offsets, with
// nothing but whitespace left out between them.
func checkChunks(t *testing.T, text string, chunks []chunkRecord, maxBytes int) {
	t.Helper()
	pos := 0
	for i, c := range chunks {
		if c.Start < pos || c.End <= c.Start || c.End > len(text) {
			t.Fatalf("chunk %d: bad offsets [%d,%d) after %d (text %d bytes)", i, c.Start, c.End, pos, len(text))
		}
		if c.Text != text[c.Start:c.End] {
			t.Fatalf("chunk %d: text differs from text[%d:%d]", i, c.Start, c.End)
		}
		if len(c.Text) > max(maxBytes, minChunkBytes) {
			t.Fatalf("chunk %d: %d bytes, over %d", i, len(c.Text), maxBytes)
		}
		if gap := text[pos:c.Start]; strings.TrimSpace(gap) != "" {
			t.Fatalf("chunk %d: non-space text %q left out before it", i, gap)
		}
		pos = c.End
	}
	if rest := text[pos:]; strings.TrimSpace(rest) != "" {
		t.Fatalf("text after the last chunk left out: %q", rest)
	}
}

func TestChunkText(t *testing.T) {
	long := strings.Repeat("word ", 100) // 500 bytes, no newline
	tests := []struct {
		name     string
		text     string
		markdown bool
		max      int
		want     []string // chunk texts
		headings []string
	}{
		{name: "empty", text: "", max: 100},
		{name: "only space", text: " \n\t\n ", max: 100},
		{name: "one paragraph", text: "hello world\n", max: 100, want: []string{"hello world"}, headings: []string{""}},
		{name: "paragraphs merge up to the cap", text: "aaa\n\nbbb\n\nccc", max: 100, want: []string{"aaa\n\nbbb\n\nccc"}, headings: []string{""}},
		{
			name: "paragraphs split at the cap", text: strings.Repeat("a", 60) + "\n\n" + strings.Repeat("b", 60), max: 100,
			want: []string{strings.Repeat("a", 60), strings.Repeat("b", 60)}, headings: []string{"", ""},
		},
		{
			name: "headings start chunks", text: "# A\nintro\n## B\nbody\n# C\nend", markdown: true, max: 1000,
			want: []string{"# A\nintro", "## B\nbody", "# C\nend"}, headings: []string{"A", "A > B", "C"},
		},
		{name: "hash without markdown", text: "# A\nintro", max: 1000, want: []string{"# A\nintro"}, headings: []string{""}},
		{
			name: "fenced hash is code", text: "# A\n```\n# not a heading\n\nstill code\n```\n", markdown: true, max: 1000,
			want: []string{"# A\n```\n# not a heading\n\nstill code\n```"}, headings: []string{"A"},
		},
		{name: "long line cut at spaces", text: long, max: 200, want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := chunkText(tc.text, tc.markdown, tc.max)
			checkChunks(t, tc.text, got, tc.max)
			if tc.name == "long line cut at spaces" {
				if len(got) < 3 {
					t.Fatalf("got %d chunks, want at least 3", len(got))
				}
				for _, c := range got {
					if strings.HasPrefix(c.Text, "ord") {
						t.Fatalf("cut inside a word: %q", c.Text[:10])
					}
				}
				return
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d chunks %+v, want %d", len(got), got, len(tc.want))
			}
			for i := range got {
				if got[i].Text != tc.want[i] || got[i].Heading != tc.headings[i] {
					t.Errorf("chunk %d = %q under %q, want %q under %q", i, got[i].Text, got[i].Heading, tc.want[i], tc.headings[i])
				}
			}
		})
	}
}

func TestChunkMultibyteNeverSplitsRunes(t *testing.T) {
	text := strings.Repeat("ü", 500) // no spaces: cuts fall on rune boundaries
	got := chunkText(text, false, 101)
	checkChunks(t, text, got, 101)
	for _, c := range got {
		if !utf8.ValidString(c.Text) {
			t.Fatalf("chunk [%d,%d) splits a rune", c.Start, c.End)
		}
	}
}

func TestChunkGoldenMarkdown(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	chunks := chunkText(string(src), true, 160)
	checkChunks(t, string(src), chunks, 160)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(chunks); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	golden := filepath.Join("testdata", "guide.chunks.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestChunkGoldenMarkdown -update to create it)", err)
	}
	if strings.TrimSpace(string(want)) != strings.TrimSpace(string(got)) {
		t.Errorf("chunks differ from %s (run with -update after checking):\n%s", golden, got)
	}
}

func FuzzChunk(f *testing.F) {
	f.Add("# T\n\npara one\n\n## U\n```\n# x\n```\ntext", true, 80)
	f.Add(strings.Repeat("ab cd\n", 100), false, 64)
	f.Add("\xff\xfe# bad utf8\n\n\x00", true, 70)
	f.Add("   \n\n  ####### not heading\n#\n", true, 64)
	f.Fuzz(func(t *testing.T, text string, markdown bool, maxBytes int) {
		maxBytes = 64 + abs(maxBytes)%4096
		checkChunks(t, text, chunkText(text, markdown, maxBytes), maxBytes)
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}
