package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// rowOrder names the rows of a section in the order they are shown.
func rowOrder(h *harness, box *fyne.Container) []string {
	var out []string
	for _, o := range box.Objects {
		for name, r := range h.d.Servers.Rows {
			if r.object == o {
				out = append(out, name)
			}
		}
	}
	return out
}

func TestServersEmptyStateOffersAddAndImport(t *testing.T) {
	h := newHarness(t, func(f *fakeBackend) { f.servers = f.servers[2:] }) // only the model
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 1 })
	if !h.d.Servers.Empty.Visible() || !strings.Contains(h.d.Servers.Empty.Objects[0].(*widget.Label).Text, "No servers yet") {
		t.Fatal("no empty state without servers")
	}
	test.Tap(h.d.Servers.EmptyAdd)
	if h.d.Servers.JSON == nil || h.d.Window.Canvas().Overlays().Top() == nil {
		t.Fatal("Add in the empty state opened no dialog")
	}
	h.d.Servers.JSON.dialog.Hide()
	test.Tap(h.d.Servers.EmptyImport)
	if h.d.Servers.Importer == nil {
		t.Fatal("Import in the empty state opened no dialog")
	}
	h.d.Servers.Importer.dialog.Hide()
	h.fb.mu.Lock()
	h.fb.servers = append(h.fb.servers, ServerInfo{Name: "memory", Kind: KindServer, Health: HealthOK, State: "ready", Enabled: true})
	h.fb.mu.Unlock()
	h.fb.push(ChangeServers)
	h.waitFor("the empty state gone", func() bool { return !h.d.Servers.Empty.Visible() })
}

func TestServersFailedFirstAndBuiltinsInTheirOwnSection(t *testing.T) {
	h := newHarness(t, func(f *fakeBackend) {
		f.servers = append(f.servers,
			ServerInfo{Name: "toolhub-python", Title: "Python", Kind: KindBuiltin, Health: HealthOK, State: "ready", Tools: 1, Enabled: true},
			ServerInfo{Name: "zeta", Kind: KindServer, Health: HealthFailed, State: "failed", Enabled: true, LastError: "x"})
	})
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 5 })
	got := strings.Join(rowOrder(h, h.d.Servers.serversBox), " ")
	if got != "flaky zeta github" {
		t.Fatalf("servers shown as %q, want the failed ones first: flaky zeta github", got)
	}
	if b := rowOrder(h, h.d.Servers.builtinBox); len(b) != 1 || b[0] != "toolhub-python" || !h.d.Servers.BuiltinHeader.Visible() {
		t.Fatalf("built-in section holds %v", b)
	}
	if m := rowOrder(h, h.d.Servers.modelBox); len(m) != 1 || m[0] != "gpt-5" {
		t.Fatalf("model section holds %v", m)
	}
	py := h.d.Servers.Rows["toolhub-python"]
	if strings.Contains(py.Title.Text, "toolhub-") || !strings.HasPrefix(py.Title.Text, "Python") {
		t.Fatalf("a built-in is titled %q", py.Title.Text)
	}
	if py.Edit.Visible() || py.Remove.Visible() {
		t.Fatal("a built-in offers Edit or Remove")
	}
	if want := "3 servers with 2 tools, 1 model — 1 of 3 ready"; h.d.Servers.Summary.Text != want {
		t.Fatalf("summary %q, want %q", h.d.Servers.Summary.Text, want)
	}
}

func TestServerRowExpandsToItsTools(t *testing.T) {
	h := newHarness(t, nil)
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	gh := h.d.Servers.Rows["github"]
	if gh.ToolsBox.Visible() || gh.ToolsButton.Text != "Show 2 tools" {
		t.Fatalf("collapsed row: tools shown %v, button %q", gh.ToolsBox.Visible(), gh.ToolsButton.Text)
	}
	test.Tap(gh.ToolsButton)
	if !gh.ToolsBox.Visible() || len(gh.ToolsBox.Objects) != 2 {
		t.Fatalf("expanded row shows %d tools", len(gh.ToolsBox.Objects))
	}
	var texts []string
	for _, o := range gh.ToolsBox.Objects {
		texts = append(texts, o.(*widget.Label).Text)
	}
	if !strings.Contains(strings.Join(texts, "\n"), "search_code — Searches code on GitHub.") {
		t.Fatalf("tools shown: %q", texts)
	}
	test.Tap(gh.ToolsButton)
	if gh.ToolsBox.Visible() {
		t.Fatal("the tools stay shown after hiding them")
	}
	if h.d.Servers.Rows["flaky"].ToolsButton.Visible() {
		t.Fatal("a server without tools offers to show them")
	}
}

func TestRestartHiddenWhileDisabled(t *testing.T) {
	h := newHarness(t, nil)
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	gh := h.d.Servers.Rows["github"]
	if !gh.Restart.Visible() {
		t.Fatal("an enabled server offers no restart")
	}
	test.Tap(gh.Enabled)
	h.waitFor("github off", func() bool { return strings.Contains(h.d.Servers.Rows["github"].Title.Text, "stopped") })
	if h.d.Servers.Rows["github"].Restart.Visible() {
		t.Fatal("a disabled server offers restart")
	}
}

func TestEditOpensTheEntryAndSaves(t *testing.T) {
	h := newHarness(t, nil)
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	test.Tap(h.d.Servers.Rows["github"].Edit)
	j := h.d.Servers.JSON
	h.waitFor("the entry loaded", func() bool { return strings.Contains(j.Entry.Text, `"run-github"`) })
	edited := strings.Replace(j.Entry.Text, "run-github", "run-github-v2", 1)
	j.Entry.SetText(edited)
	h.waitFor("checked", func() bool { return !j.OK.Disabled() })
	test.Tap(j.OK)
	h.waitFor("saved", func() bool { return strings.HasPrefix(h.d.Servers.Status.Text, "Saved github") })
	h.fb.mu.Lock()
	got := h.fb.replaced["github"]
	h.fb.mu.Unlock()
	if got != edited {
		t.Fatalf("the backend got %q, want the edited text", got)
	}
	h.checkNothingOnUI()
}

func TestRemoveAsksFirst(t *testing.T) {
	h := newHarness(t, nil)
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	test.Tap(h.d.Servers.Rows["github"].Remove)
	test.Tap(h.d.Servers.Confirm.No)
	h.fb.mu.Lock()
	kept := len(h.fb.removed) == 0
	h.fb.mu.Unlock()
	if !kept {
		t.Fatal("Keep it removed the server")
	}
	test.Tap(h.d.Servers.Rows["github"].Remove)
	test.Tap(h.d.Servers.Confirm.Yes)
	h.waitFor("github gone", func() bool { return h.d.Servers.Rows["github"] == nil })
	if !strings.HasPrefix(h.d.Servers.Status.Text, "Removed github.") {
		t.Fatalf("status %q", h.d.Servers.Status.Text)
	}
}

func TestRefusalIsSaidInWordsWithDetailsToCopy(t *testing.T) {
	h := newHarness(t, func(f *fakeBackend) {
		f.refuse = &PlainError{Summary: "Your config file could not be written.", Fix: "Check that its folder is writable.",
			Details: "editing /home/me/.config/toolhub/config.json: permission denied"}
	})
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	test.Tap(h.d.Servers.Rows["github"].Remove)
	test.Tap(h.d.Servers.Confirm.Yes)
	h.waitFor("refused", func() bool { return strings.Contains(h.d.Servers.Status.Text, "could not be written") })
	if strings.Contains(h.d.Servers.Status.Text, "permission denied") || !h.d.Servers.CopyDetails.Visible() {
		t.Fatalf("status %q shows the raw error or hides the details", h.d.Servers.Status.Text)
	}
	test.Tap(h.d.Servers.CopyDetails)
	if got := h.d.App.Clipboard().Content(); !strings.Contains(got, "permission denied") {
		t.Fatalf("copied %q", got)
	}
}

func TestPlural(t *testing.T) {
	cases := []struct {
		n         int
		one, many string
		want      string
	}{
		{0, "tool", "tools", "0 tools"}, {1, "tool", "tools", "1 tool"}, {2, "tool", "tools", "2 tools"},
		{1, "model", "models", "1 model"}, {1, "folder", "folders", "1 folder"}, {2, "entry", "entries", "2 entries"},
	}
	for _, tc := range cases {
		t.Run(tc.want, func(t *testing.T) {
			if got := Plural(tc.n, tc.one, tc.many); got != tc.want {
				t.Fatalf("Plural(%d, %q, %q) = %q", tc.n, tc.one, tc.many, got)
			}
		})
	}
}
