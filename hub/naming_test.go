package hub

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
)

func sha6(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])[:6]
}

func TestNamingPlainName(t *testing.T) {
	tool48 := strings.Repeat("t", 48) // "server1234" + "__" + 48 = 60
	tool49 := strings.Repeat("t", 49) // 61
	cases := []struct {
		name       string
		server     string
		tool       string
		unprefixed bool
		want       string
	}{
		{"short", "everything", "echo", false, "everything__echo"},
		{"allowed punctuation kept", "fs-1.2", "read_file", false, "fs-1.2__read_file"},
		{"space and slash", "my server", "a/b", false, "my_server__a_b"},
		{"unicode one underscore per character", "mémoire", "lire✓", false, "m_moire__lire_"},
		{"emoji", "x", "go🚀", false, "x__go_"},
		{"exactly 60 kept", "server1234", tool48, false, "server1234__" + tool48},
		{"61 shortened", "server1234", tool49, false,
			("server1234__" + tool49)[:53] + "_" + sha6("server1234__"+tool49)},
		{"long unicode hashes the unsanitised original", "ß", strings.Repeat("é", 70), false,
			("___" + strings.Repeat("_", 70))[:53] + "_" + sha6("ß__"+strings.Repeat("é", 70))},
		{"unprefixed", "python", "run", true, "run"},
		{"unprefixed long", "docs", strings.Repeat("s", 61), true,
			strings.Repeat("s", 53) + "_" + sha6("docs__"+strings.Repeat("s", 61))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := plainName(toolKey{tc.server, tc.tool}, tc.unprefixed)
			if got != tc.want {
				t.Errorf("plainName(%q, %q) = %q, want %q", tc.server, tc.tool, got, tc.want)
			}
			if len(got) > MaxToolNameLen {
				t.Errorf("len = %d, over %d", len(got), MaxToolNameLen)
			}
		})
	}
}

// catalogNames builds a catalog from servers, added in the given order, and
// returns the exposed name of every (server, tool).
func catalogNames(t *testing.T, servers []ServerMeta, tools map[string][]string) map[toolKey]string {
	t.Helper()
	c := NewCatalog(nil)
	for _, meta := range servers {
		c.SetServer(meta, rawTools(tools[meta.Name]...))
	}
	names := map[toolKey]string{}
	for _, tool := range c.Snapshot().Tools() {
		names[toolKey{tool.Server, tool.RawTool.Name}] = tool.Name
	}
	return names
}

func TestNamingCollisionsIgnoreInsertionOrder(t *testing.T) {
	cases := []struct {
		name    string
		servers []ServerMeta
		tools   map[string][]string
		want    map[toolKey]string
	}{{
		name:    "sanitised server names collide",
		servers: []ServerMeta{{Name: "my server"}, {Name: "my_server"}},
		tools:   map[string][]string{"my server": {"x"}, "my_server": {"x"}},
		want: map[toolKey]string{
			{"my server", "x"}: "my_server__x",
			{"my_server", "x"}: "my_server__x_" + sha6("my_server__x"),
		},
	}, {
		name:    "two unprefixed servers",
		servers: []ServerMeta{{Name: "web", Unprefixed: true}, {Name: "docs", Unprefixed: true}},
		tools:   map[string][]string{"web": {"search"}, "docs": {"search"}},
		want: map[toolKey]string{
			{"docs", "search"}: "search",
			{"web", "search"}:  "search_" + sha6("web__search"),
		},
	}, {
		name:    "unprefixed tool named like a prefixed one",
		servers: []ServerMeta{{Name: "everything"}, {Name: "builtin", Unprefixed: true}},
		tools:   map[string][]string{"everything": {"echo"}, "builtin": {"everything__echo"}},
		want: map[toolKey]string{
			{"builtin", "everything__echo"}: "everything__echo",
			{"everything", "echo"}:          "everything__echo_" + sha6("everything__echo"),
		},
	}, {
		name:    "same original string from different pairs",
		servers: []ServerMeta{{Name: "a_"}, {Name: "a"}, {Name: "a__"}},
		tools:   map[string][]string{"a_": {"_b"}, "a": {"__b"}, "a__": {"b"}},
		want: map[toolKey]string{
			{"a", "__b"}: "a____b",
			{"a_", "_b"}: "a____b_" + sha6("a____b"),
			{"a__", "b"}: "a____b_" + hashHex("a____b")[:8],
		},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			forward := catalogNames(t, tc.servers, tc.tools)
			reversed := slices.Clone(tc.servers)
			slices.Reverse(reversed)
			backward := catalogNames(t, reversed, tc.tools)
			for key, want := range tc.want {
				if forward[key] != want {
					t.Errorf("%v: got %q, want %q", key, forward[key], want)
				}
				if backward[key] != want {
					t.Errorf("%v added in reverse order: got %q, want %q", key, backward[key], want)
				}
			}
		})
	}
}

func TestNamingExtendsHashWhenHashedNameIsTaken(t *testing.T) {
	// "zz"'s hashed name is squatted by a third tool's plain name.
	squatter := "x__y_" + sha6("zz__x__y")
	names := catalogNames(t,
		[]ServerMeta{{Name: "x"}, {Name: "zz", Unprefixed: true}, {Name: "q", Unprefixed: true}},
		map[string][]string{"x": {"y"}, "zz": {"x__y"}, "q": {squatter}})
	want := "x__y_" + hashHex("zz__x__y")[:8]
	if got := names[toolKey{"zz", "x__y"}]; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := names[toolKey{"q", squatter}]; got != squatter {
		t.Errorf("squatter renamed to %q", got)
	}
}

func TestNamingStableWhenUnrelatedServersChange(t *testing.T) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: "my_server"}, rawTools("x", "y"))
	c.SetServer(ServerMeta{Name: "other"}, rawTools("x"))
	nameOf := func(server, tool string) string {
		for _, tl := range c.Snapshot().ServerTools(server) {
			if tl.RawTool.Name == tool {
				return tl.Name
			}
		}
		return ""
	}
	c.RemoveServer("other")
	c.SetServer(ServerMeta{Name: "zeta"}, rawTools("x"))
	if got := nameOf("my_server", "x"); got != "my_server__x" {
		t.Fatalf("after unrelated changes: %q", got)
	}
	// "my server" sorts first and takes the plain name.
	c.SetServer(ServerMeta{Name: "my server"}, rawTools("x"))
	if got, want := nameOf("my_server", "x"), "my_server__x_"+sha6("my_server__x"); got != want {
		t.Fatalf("after a new collision: %q, want %q", got, want)
	}
	if got := nameOf("my_server", "y"); got != "my_server__y" {
		t.Fatalf("tool outside the collision renamed to %q", got)
	}
	c.RemoveServer("my server")
	if got := nameOf("my_server", "x"); got != "my_server__x" {
		t.Fatalf("after the collision went away: %q", got)
	}
}

func FuzzExposedName(f *testing.F) {
	f.Add("everything", "echo", "echo2", false)
	f.Add("my server", "a/b", "a_b", false)
	f.Add("s", strings.Repeat("x", 70), strings.Repeat("x", 71), false)
	f.Add("ü", "é", "è", true)
	f.Fuzz(func(t *testing.T, server, tool1, tool2 string, unprefixed bool) {
		name := plainName(toolKey{server, tool1}, unprefixed)
		if len(name) == 0 || len(name) > MaxToolNameLen {
			t.Fatalf("length %d: %q", len(name), name)
		}
		for _, r := range name {
			if !isNameChar(r) {
				t.Fatalf("character %q in %q", r, name)
			}
		}
		if again := plainName(toolKey{server, tool1}, unprefixed); again != name {
			t.Fatalf("not deterministic: %q then %q", name, again)
		}
		checkDistinctNames(t, server, tool1, tool2, unprefixed)
	})
}

// checkDistinctNames puts two tools, and the same tool names under a second
// server, in one catalog: every pair must get its own valid name.
func checkDistinctNames(t *testing.T, server, tool1, tool2 string, unprefixed bool) {
	c := NewCatalog(nil)
	c.SetServer(ServerMeta{Name: server, Unprefixed: unprefixed}, rawTools(tool1, tool2))
	c.SetServer(ServerMeta{Name: server + "2"}, rawTools(tool1, tool2))
	seen := map[string]bool{}
	want := 0
	for _, tool := range []string{tool1, tool2} {
		if tool != "" {
			want++
		}
	}
	if tool1 == tool2 {
		want = min(want, 1)
	}
	snap := c.Snapshot()
	if snap.Len() != 2*want {
		t.Fatalf("%d tools in the catalog, want %d", snap.Len(), 2*want)
	}
	for _, tool := range snap.Tools() {
		if seen[tool.Name] {
			t.Fatalf("name %q given twice", tool.Name)
		}
		seen[tool.Name] = true
		if len(tool.Name) > MaxToolNameLen {
			t.Fatalf("name %q too long", tool.Name)
		}
	}
}
