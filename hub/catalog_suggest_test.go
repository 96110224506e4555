package hub

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// suggestCatalog resembles a user's setup with the reference servers.
func suggestCatalog() *Snapshot {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "everything"}, rawTools(
		"echo", "get-sum", "get-env", "get-tiny-image", "toggle-logging", "trigger-long-running-operation"))
	c.SetServer(ServerMeta{Name: "filesystem"}, rawTools(
		"read_file", "read_multiple_files", "write_file", "list_directory", "search_files"))
	c.SetServer(ServerMeta{Name: "memory"}, rawTools(
		"create_entities", "create_relations", "read_graph", "search_nodes"))
	c.SetServer(ServerMeta{Name: "builtin", Unprefixed: true}, rawTools("search_documents", "python"))
	return c.Snapshot()
}

func TestSuggest(t *testing.T) {
	snap := suggestCatalog()
	cases := []struct {
		name  string
		query string
		first string // the best suggestion
	}{
		{"missing prefix", "get-sum", "everything__get-sum"},
		{"typo in tool", "everything__get-sun", "everything__get-sum"},
		{"typo in server", "evrything__echo", "everything__echo"},
		{"transposed letters", "memory__cretae_entities", "memory__create_entities"},
		{"wrong case", "FileSystem__Read_File", "filesystem__read_file"},
		{"wrong server", "fs__write_file", "filesystem__write_file"},
		{"unprefixed tool given a prefix", "builtin__python", "python"},
		{"unprefixed typo", "pyhton", "python"},
		{"prefix of a tool", "toggle", "everything__toggle-logging"},
		{"substring of a tool", "tiny-image", "everything__get-tiny-image"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := snap.Suggest(tc.query, 3)
			if len(got) == 0 || got[0] != tc.first {
				t.Errorf("Suggest(%q) = %v, want %q first", tc.query, got, tc.first)
			}
		})
	}
}

func TestSuggestRanksAndLimits(t *testing.T) {
	snap := suggestCatalog()
	got := snap.Suggest("read", 10)
	want := []string{"filesystem__read_file", "filesystem__read_multiple_files", "memory__read_graph"}
	if !slices.Equal(got, want) {
		t.Errorf("Suggest(read) = %v, want %v", got, want)
	}
	if got := snap.Suggest("read", 2); len(got) != 2 {
		t.Errorf("Suggest(read, 2) gave %d names", len(got))
	}
	if got := snap.Suggest("read", 0); got != nil {
		t.Errorf("Suggest(read, 0) = %v", got)
	}
}

func TestSuggestNothingClose(t *testing.T) {
	snap := suggestCatalog()
	for _, query := range []string{"launch_rocket", "zz", ""} {
		if got := snap.Suggest(query, 3); len(got) != 0 {
			t.Errorf("Suggest(%q) = %v, want nothing", query, got)
		}
	}
	if got := NewCatalog(nil).Snapshot().Suggest("echo", 3); got != nil {
		t.Errorf("empty catalog suggested %v", got)
	}
}

func TestSuggestEditDistance(t *testing.T) {
	cases := []struct {
		a, b  string
		bound int
		want  int
	}{
		{"", "", 3, 0},
		{"abc", "abc", 3, 0},
		{"abc", "abd", 3, 1},
		{"abc", "acb", 3, 1}, // transposition
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 2, 3}, // past the bound: bound+1
		{"a", "abcdef", 2, 3},
		{"", "abc", 5, 3},
	}
	var d editDistance
	for _, tc := range cases {
		if got := d.bounded(tc.a, tc.b, tc.bound); got != tc.want {
			t.Errorf("bounded(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.bound, got, tc.want)
		}
	}
}

func TestSuggestPrefersTheNamedServer(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "filesystem"}, rawTools("read_file"))
	c.SetServer(ServerMeta{Name: "memory"}, rawTools("read_files"))
	got := c.Snapshot().Suggest("memory__read_file", 2)
	want := []string{"memory__read_files", "filesystem__read_file"}
	if !slices.Equal(got, want) {
		t.Errorf("Suggest(memory__read_file) = %v, want %v", got, want)
	}
}

// fullOSA is the textbook optimal-string-alignment distance, unbanded.
func fullOSA(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func TestSuggestEditDistanceMatchesUnbanded(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomWord := func() string {
		b := make([]byte, rng.IntN(9))
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	}
	var d editDistance
	for range 20000 {
		a, b, bound := randomWord(), randomWord(), rng.IntN(5)
		want := min(fullOSA(a, b), bound+1)
		if got := d.bounded(a, b, bound); got != want {
			t.Fatalf("bounded(%q, %q, %d) = %d, want %d", a, b, bound, got, want)
		}
	}
}
