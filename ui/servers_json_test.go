package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// openJSON opens Add from JSON in a window large enough for it.
func openJSON(h *harness) *JSONDialog {
	h.t.Helper()
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	h.d.Window.Resize(fyne.NewSize(1200, 900))
	test.Tap(h.d.Servers.AddJSON)
	return h.d.Servers.JSON
}

func dialogOpen(h *harness) bool { return h.d.Window.Canvas().Overlays().Top() != nil }

func TestJSONDialogIsAnEditorOfARealSize(t *testing.T) {
	h := newHarness(t, nil)
	j := openJSON(h)
	if !j.Entry.MultiLine || !j.Entry.TextStyle.Monospace {
		t.Fatal("the JSON editor is not a multi-line monospace entry")
	}
	if size := j.Entry.Size(); size.Width < 600 || size.Height < 300 {
		t.Fatalf("the editor is %v, want room for a snippet (the dialog at least 640×420)", size)
	}
}

func TestJSONDialogAcceptsEveryShape(t *testing.T) {
	cases := []struct {
		name, text, typedName, added string
	}{
		{"mcpServers", `{"mcpServers": {"memory": {"command": "npx"}}}`, "", "memory"},
		{"VS Code servers", `{"servers": {"fetch": {"command": "uvx"}}}`, "", "fetch"},
		{"bare name", `{"everything": {"command": "npx"}}`, "", "everything"},
		{"one server, named in the dialog", `{"command": "npx", "args": ["-y", "x"]}`, "mine", "mine"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			j := openJSON(h)
			j.Entry.SetText(tc.text)
			if tc.typedName != "" {
				h.waitFor("asked for a name", func() bool { return j.Name.Visible() && strings.Contains(j.Check.Text, "name") })
				if !j.OK.Disabled() {
					t.Fatal("a server without a name can be added")
				}
				test.Type(j.Name, tc.typedName)
			}
			h.waitFor("checked", func() bool { return !j.OK.Disabled() })
			if !strings.Contains(j.Check.Text, tc.added) {
				t.Fatalf("check says %q, want it to name %s", j.Check.Text, tc.added)
			}
			test.Tap(j.OK)
			h.waitFor("added", func() bool { return h.d.Servers.Rows[tc.added] != nil })
			if want := "Added " + tc.added + ". It is starting now"; !strings.HasPrefix(h.d.Servers.Status.Text, want) {
				t.Fatalf("status %q, want %q…", h.d.Servers.Status.Text, want)
			}
			if dialogOpen(h) {
				t.Fatal("the dialog stayed open after adding")
			}
		})
	}
}

func TestJSONDialogShowsMistakesWhileTyping(t *testing.T) {
	h := newHarness(t, nil)
	j := openJSON(h)
	j.Entry.SetText("{\n  \"mcpServers\": {\n    \"a\": {\"command\": }\n  }\n}")
	h.waitFor("the mistake", func() bool { return strings.HasPrefix(j.Check.Text, "Not yet: line 3, column ") })
	if !j.OK.Disabled() {
		t.Fatal("broken JSON can be added")
	}
	j.Entry.SetText("{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"npx\"}\n  }\n}")
	h.waitFor("fixed", func() bool { return j.Check.Text == "Ready to add a." })
}

func TestJSONDialogKeepsTheTextWhenRefused(t *testing.T) {
	cases := []struct {
		name   string
		setup  func(*fakeBackend)
		text   string
		shown  string
		copied string
	}{
		{"already there", nil, `{"mcpServers": {"github": {"command": "gh"}}}`, "github is already one of your servers.", ""},
		{"refused", func(f *fakeBackend) {
			f.refuse = &PlainError{Summary: "Your config file has a mistake on line 4.", Fix: "Fix it first.",
				Details: "/home/me/.config/toolhub/config.json:4:2: syntax error"}
		}, `{"mcpServers": {"x": {"command": "x"}}}`, "Your config file has a mistake on line 4. Fix it first.", "config.json:4:2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, tc.setup)
			j := openJSON(h)
			j.Entry.SetText(tc.text)
			h.waitFor("checked", func() bool { return !j.OK.Disabled() })
			test.Tap(j.OK)
			h.waitFor("refusal shown", func() bool { return strings.Contains(j.Check.Text, tc.shown) })
			if !dialogOpen(h) || j.Entry.Text != tc.text {
				t.Fatalf("open %v, text %q after a refusal", dialogOpen(h), j.Entry.Text)
			}
			if strings.Contains(j.Check.Text, "/") {
				t.Fatalf("the refusal shows a path: %q", j.Check.Text)
			}
			if tc.copied != "" {
				test.Tap(j.Details)
				if got := h.d.App.Clipboard().Content(); !strings.Contains(got, tc.copied) {
					t.Fatalf("copied %q", got)
				}
			}
		})
	}
}

func TestImportOffersTheDiscoveredClients(t *testing.T) {
	claude := "/home/me/.config/Claude/claude_desktop_config.json"
	h := newHarness(t, func(f *fakeBackend) {
		f.clients = []ClientConfig{
			{Client: "Claude Desktop", Path: claude, Servers: []string{"everything", "github"}},
			{Client: "Cursor", Path: "/home/me/.cursor/mcp.json", Problem: "line 2, column 1: syntax error"},
		}
	})
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	test.Tap(h.d.Servers.Import)
	d := h.d.Servers.Importer
	h.waitFor("the list", func() bool { return d.Picks[claude] != nil })
	if gh := d.Picks[claude]["github"]; !gh.Disabled() || !strings.Contains(gh.Text, "already added") {
		t.Fatalf("a server already there can be ticked: %q", gh.Text)
	}
	if !d.Import.Disabled() {
		t.Fatal("Import enabled with nothing ticked")
	}
	d.Picks[claude]["everything"].SetChecked(true)
	if d.Import.Disabled() {
		t.Fatal("Import disabled with a server ticked")
	}
	test.Tap(d.Import)
	h.waitFor("imported", func() bool { return h.d.Servers.Rows["everything"] != nil })
	if !strings.HasPrefix(h.d.Servers.Status.Text, "Added everything.") {
		t.Fatalf("status %q", h.d.Servers.Status.Text)
	}
	h.fb.mu.Lock()
	added := strings.Join(h.fb.added, ",")
	h.fb.mu.Unlock()
	if added != "everything" {
		t.Fatalf("imported %q, want only the ticked server", added)
	}
	h.checkNothingOnUI()
}
