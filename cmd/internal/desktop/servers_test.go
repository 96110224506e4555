package desktop

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// answers calls tool through the running hub and returns its text.
func (e *env) answers(tool string) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if ok, err := e.daemon.Hub().WaitTool(ctx, tool); !ok || err != nil {
		e.t.Fatalf("%s not offered (%v): %+v", tool, err, e.daemon.Hub().Servers())
	}
	res, err := e.daemon.Hub().Call(ctx, tool, []byte(`{"q": "x"}`), hub.CallOptions{})
	if err != nil {
		e.t.Fatalf("call %s: %v", tool, err)
	}
	return string(res.Raw)
}

func since(h *hub.Hub, name string) time.Time {
	for _, st := range h.Servers() {
		if st.Name == name {
			return st.Since
		}
	}
	return time.Time{}
}

// A server added in the window serves its tools from the running hub at
// once, an edit restarts it with its new entry, and Remove stops it; the
// servers already running are left alone throughout.
func TestServerAddedInTheWindowServesAtOnce(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	e := newEnv(t, orch)
	notesSince := since(e.daemon.Hub(), "notes")
	first := startMCP(t, "third", "ask", "first answer")
	second := startMCP(t, "third", "ask", "second answer")

	test.Tap(e.desk.Servers.AddJSON)
	j := e.desk.Servers.JSON
	j.Entry.SetText(`{"third": {"url": "` + first + `", "locality": "local"}}`)
	e.waitFor("checked", func() bool { return !j.OK.Disabled() })
	test.Tap(j.OK)
	e.waitFor("third ready in the list", func() bool {
		r := e.desk.Servers.Rows["third"]
		return r != nil && strings.Contains(r.Title.Text, "ready") && strings.Contains(r.Figures.Text, "1 tool")
	})
	if !strings.HasPrefix(e.desk.Servers.Status.Text, "Added third. It is starting now") {
		t.Fatalf("status %q", e.desk.Servers.Status.Text)
	}
	if got := e.answers("third__ask"); !strings.Contains(got, "first answer") {
		t.Fatalf("third answered %s", got)
	}

	if err := e.backend.ReplaceServerJSON(t.Context(), "third", `{"url": "`+second+`", "locality": "local"}`); err != nil {
		t.Fatal(err)
	}
	if got := e.answers("third__ask"); !strings.Contains(got, "second answer") {
		t.Fatalf("the edited server answered %s", got)
	}

	e.waitFor("the row", func() bool { return e.desk.Servers.Rows["third"] != nil })
	test.Tap(e.desk.Servers.Rows["third"].Remove)
	test.Tap(e.desk.Servers.Confirm.Yes)
	e.waitFor("third gone", func() bool { return e.desk.Servers.Rows["third"] == nil })
	// The row goes with the server's status; its tools leave the catalog
	// as the server stops, a moment later.
	e.waitFor("the removed server's tool withdrawn", func() bool {
		_, ok := e.daemon.Hub().Snapshot().Lookup("third__ask")
		return !ok
	})
	data, err := os.ReadFile(filepath.Join(e.dir, "toolhub.json"))
	if err != nil || strings.Contains(string(data), `"third"`) {
		t.Fatalf("the config still holds third (%v):\n%s", err, data)
	}
	if got := since(e.daemon.Hub(), "notes"); !got.Equal(notesSince) {
		t.Fatalf("notes was reconnected (%v, then %v) by changes to another server", notesSince, got)
	}
	for name, r := range e.desk.Servers.Rows {
		if strings.HasPrefix(r.Title.Text, "toolhub-") {
			t.Errorf("row %s is titled %q", name, r.Title.Text)
		}
	}
}

func TestCheckServersJSON(t *testing.T) {
	cases := []struct {
		name, text, serverName string
		names                  string
		needsName              bool
		problem                string
	}{
		{name: "mcpServers", text: `{"mcpServers": {"a": {"command": "npx"}}}`, names: "a"},
		{name: "VS Code servers", text: `{"servers": {"b": {"type": "stdio", "command": "uvx"}}}`, names: "b"},
		{name: "bare", text: `{"a": {"command": "x"}, "b": {"url": "https://example.com/mcp"}}`, names: "a,b"},
		{name: "one unnamed server", text: `{"command": "npx", "args": ["x"]}`, names: "server", needsName: true},
		{name: "one server named", text: `{"command": "npx"}`, serverName: "mine", names: "mine"},
		{name: "comments allowed", text: "{\n  // mine\n  \"a\": {\"command\": \"x\"},\n}", names: "a"},
		{name: "syntax", text: "{\n  \"a\": {\n    \"command\": \n  }\n}", problem: "line 4, column 3: syntax error"},
		{name: "wrong type", text: "{\"mcpServers\": {\n  \"a\": {\"command\": 5}\n}}", problem: "line 2, column 20: "},
		{name: "empty", text: `{"mcpServers": {}}`, problem: "line 1, column 1: no servers in it"},
		{name: "not an object", text: `[1]`, problem: "line 1, column 1: want an object"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := (&Backend{}).CheckServersJSON(t.Context(), tc.text, tc.serverName)
			if err != nil {
				t.Fatal(err)
			}
			if tc.problem != "" {
				if !strings.HasPrefix(c.Problem, tc.problem) {
					t.Fatalf("problem %q, want %q…", c.Problem, tc.problem)
				}
				return
			}
			if c.Problem != "" || strings.Join(c.Names, ",") != tc.names || c.NeedsName != tc.needsName {
				t.Fatalf("got %+v, want names %s needsName %v", c, tc.names, tc.needsName)
			}
		})
	}
}

// FuzzCheckServersJSON: any pasted text is read without a panic, and a
// problem is said by line and column, never by a file's path.
func FuzzCheckServersJSON(f *testing.F) {
	for _, seed := range []string{`{"mcpServers": {"a": {"command": "x"}}}`, `{"command": "x"}`, `{"a": {"url": 1}}`, "{\n", `{"servers": []}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := (&Backend{}).CheckServersJSON(context.Background(), text, "")
		if err != nil {
			return
		}
		if c.Problem == "" && len(c.Names) == 0 {
			t.Fatalf("%q: neither servers nor a problem", text)
		}
		if strings.Contains(c.Problem, string(filepath.Separator)+"tmp") {
			t.Fatalf("%q: problem names a path: %s", text, c.Problem)
		}
	})
}
