package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
)

func TestRunShowsStepsLiveAndCancels(t *testing.T) {
	gate := make(chan struct{})
	h := newHarness(t, func(fb *fakeBackend) { fb.runGate = gate })
	h.d.Select(TabRuns)
	test.Type(h.d.Runs.Task, "what do my notes say")
	test.Tap(h.d.Runs.RunButton)
	h.waitFor("two live steps", func() bool { return len(h.d.Runs.Steps.Objects) == 2 })
	if !h.d.Runs.running || h.d.Runs.CancelBtn.Disabled() {
		t.Fatal("run not shown as running while the backend holds it")
	}
	if got := h.d.Runs.StepRows[1].Summary.Text; !strings.Contains(got, "search_documents") {
		t.Fatalf("second step shows %q", got)
	}
	test.Tap(h.d.Runs.CancelBtn)
	h.waitFor("cancelled", func() bool { return strings.HasPrefix(h.d.Runs.State.Text, "cancelled") })
	if h.d.Runs.RunButton.Disabled() {
		t.Fatal("run button still disabled after cancel")
	}
	h.waitFor("history lists the run", func() bool { return len(h.d.Runs.History.runs) == 1 })
	h.checkNothingOnUI()
}

func TestRunAnswersAndChartsToolMix(t *testing.T) {
	h := newHarness(t, nil)
	test.Type(h.d.Runs.Task, "ultimate question")
	test.Tap(h.d.Runs.RunButton)
	h.waitFor("answer", func() bool { return h.d.Runs.Answer.Text == "42" })
	if n := len(h.d.Runs.Mix.Bars); n != 2 {
		t.Fatalf("tool mix has %d bars, want 2: %+v", n, h.d.Runs.Mix.Bars)
	}
	h.waitFor("spend chart", func() bool { return len(h.d.Runs.Spend.Bars) == 1 })
	h.d.Runs.History.List.Select(0)
	h.waitFor("detail", func() bool { return strings.Contains(h.d.Runs.History.Detail.Text, "Answer: 42") })
}

func TestIngestShowsProgressAndStaysResponsive(t *testing.T) {
	gate := make(chan struct{})
	h := newHarness(t, func(fb *fakeBackend) { fb.ingestGate = gate })
	h.d.Select(TabDocuments)
	h.waitFor("configured root", func() bool { return len(h.d.Documents.folders) == 1 })
	test.Tap(h.d.Documents.Ingest)
	h.waitFor("first progress", func() bool { return h.d.Documents.Progress.Value == 0.25 })
	// The ingest is held in the backend; the window keeps answering.
	test.Type(h.d.Documents.Query, "launch")
	test.Tap(h.d.Runs.History.Search)
	h.d.Documents.search()
	h.waitFor("search results while ingesting", func() bool { return len(h.d.Documents.Results.Objects) == 1 })
	if !h.d.Documents.Ingest.Disabled() {
		t.Fatal("ingest button enabled during an ingest")
	}
	close(gate)
	h.waitFor("ingest done", func() bool { return strings.HasPrefix(h.d.Documents.Current.Text, "Done: 4 new") })
	if h.d.Documents.Progress.Value != 1 {
		t.Fatalf("progress = %v at the end", h.d.Documents.Progress.Value)
	}
	h.checkNothingOnUI()
}

func TestIngestCancel(t *testing.T) {
	gate := make(chan struct{})
	h := newHarness(t, func(fb *fakeBackend) { fb.ingestGate = gate })
	h.waitFor("configured root", func() bool { return len(h.d.Documents.folders) == 1 })
	test.Tap(h.d.Documents.Ingest)
	h.waitFor("first progress", func() bool { return h.d.Documents.Progress.Value == 0.25 })
	test.Tap(h.d.Documents.Cancel)
	h.waitFor("cancelled", func() bool { return strings.HasPrefix(h.d.Documents.Current.Text, "Ingest cancelled after 0") })
	if h.d.Documents.CopyDetails.Visible() || !h.d.Documents.Cancel.Disabled() {
		t.Fatal("a cancel the user asked for is shown as a failure")
	}
}

// A failure in the Documents and Runs tabs is said in words with its fix,
// and its full text is one click away; the next success hides the button.
func TestTabsSayFailuresInWords(t *testing.T) {
	fail := &PlainError{Summary: "Nothing answers at the embedder.", Fix: "Start it.",
		Details: "embed: dial tcp 127.0.0.1:9: connect: connection refused"}
	h := newHarness(t, func(fb *fakeBackend) { fb.failWith = fail })
	docs := h.d.Documents
	h.waitFor("configured root", func() bool { return len(docs.folders) == 1 })
	test.Tap(docs.Ingest)
	h.waitFor("the failure", func() bool { return docs.Current.Text == "Ingest stopped. Nothing answers at the embedder. Start it." })
	test.Tap(docs.CopyDetails)
	if got := h.d.App.Clipboard().Content(); got != fail.Details {
		t.Fatalf("copied %q", got)
	}
	docs.Search("launch")
	h.waitFor("the search failure", func() bool { return strings.HasPrefix(docs.Current.Text, "Search failed. Nothing answers") })

	runs := h.d.Runs
	runs.RunTask("what is new")
	h.waitFor("the failed run", func() bool { return strings.HasPrefix(runs.State.Text, "failed") })
	if !strings.HasPrefix(runs.Answer.Text, "No answer. Nothing answers at the embedder. Start it.") || !runs.CopyDetails.Visible() {
		t.Fatalf("answer %q, copy details shown %v", runs.Answer.Text, runs.CopyDetails.Visible())
	}
	h.fb.mu.Lock()
	h.fb.failWith = nil
	h.fb.mu.Unlock()
	runs.RunTask("what is new")
	h.waitFor("the answered run", func() bool { return strings.HasPrefix(runs.State.Text, "answered") })
	if runs.CopyDetails.Visible() {
		t.Fatal("details of the old failure are still offered")
	}
	h.checkNothingOnUI()
}

func TestServersShowStateAndActions(t *testing.T) {
	h := newHarness(t, nil)
	h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
	flaky := h.d.Servers.Rows["flaky"]
	if flaky.Dot.FillColor != healthColor(HealthFailed) || !strings.Contains(flaky.Problem.Text, "exited with status 1") {
		t.Fatalf("failed server shows %v %q", flaky.Dot.FillColor, flaky.Problem.Text)
	}
	test.Tap(flaky.CopyDetails)
	if got := h.d.App.Clipboard().Content(); !strings.Contains(got, "boom: no such module") {
		t.Fatalf("copied details %q lack the stderr tail", got)
	}
	if h.d.Servers.Rows["gpt-5"].Restart.Visible() {
		t.Fatal("a model endpoint offers restart")
	}
	test.Tap(flaky.Restart)
	h.waitFor("restart done", func() bool { return h.d.Servers.Status.Text == "flaky: done" })
	test.Tap(h.d.Servers.Rows["github"].Enabled)
	h.waitFor("github stopped", func() bool { return strings.Contains(h.d.Servers.Rows["github"].Title.Text, "stopped") })
	test.Tap(h.d.Servers.AddJSON)
	h.d.Servers.JSON.Entry.SetText(`{"mcpServers":{"memory":{"command":"npx"}}}`)
	h.waitFor("checked", func() bool { return !h.d.Servers.JSON.OK.Disabled() })
	test.Tap(h.d.Servers.JSON.OK)
	h.waitFor("memory row", func() bool { return h.d.Servers.Rows["memory"] != nil })
	if h.fb.restarted[0] != "flaky" {
		t.Fatalf("restarted %v", h.fb.restarted)
	}
	h.checkNothingOnUI()
}

func TestShortcutsSwitchTabsAndRun(t *testing.T) {
	h := newHarness(t, nil)
	typeShortcut := func(key fyne.KeyName) {
		sc := &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
		h.d.Window.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(sc)
	}
	for i, title := range []string{TabPreferences, TabServers, TabDocuments, TabRuns} {
		typeShortcut(Shortcuts[i].Key)
		if got := h.d.Tabs.Selected().Text; got != title {
			t.Fatalf("shortcut %s selected %q, want %q", Shortcuts[i].Key, got, title)
		}
	}
	h.d.Select(TabPreferences)
	test.Type(h.d.Runs.Task, "by keyboard")
	typeShortcut(fyne.KeyReturn)
	h.waitFor("answer", func() bool { return h.d.Runs.Answer.Text == "42" })
	if h.d.Tabs.Selected().Text != TabRuns {
		t.Fatal("running by keyboard did not show the runs tab")
	}
}

func TestMainMenuCarriesEveryShortcut(t *testing.T) {
	h := newHarness(t, nil)
	menu := h.d.Window.MainMenu()
	found := map[fyne.KeyName]*fyne.MenuItem{}
	for _, m := range menu.Items {
		for _, item := range m.Items {
			if sc, ok := item.Shortcut.(*desktop.CustomShortcut); ok {
				found[sc.KeyName] = item
			}
		}
	}
	if len(found) != len(Shortcuts) {
		t.Fatalf("main menu has %d shortcuts, want %d", len(found), len(Shortcuts))
	}
	found[fyne.Key3].Action()
	if got := h.d.Tabs.Selected().Text; got != TabDocuments {
		t.Fatalf("menu item for Ctrl+3 selected %q", got)
	}
}

func TestNewestStoredRunDoesNotReplaceARunStartedHere(t *testing.T) {
	old := RunDetail{RunSummary: RunSummary{ID: "old", Task: "old task", Started: time.Now()},
		Steps: []RunStep{{Kind: "tool", Name: "old_tool"}}}
	tests := []struct {
		name     string
		runHere  bool
		wantTool string
	}{
		{"nothing run here: the newest stored run is shown", false, "old_tool"},
		{"a run finished here first: it stays shown", true, "search_documents"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gate := make(chan struct{})
			h := newHarness(t, func(fb *fakeBackend) { fb.runs = []RunDetail{old}; fb.detailGate = gate })
			h.waitFor("history", func() bool { return h.d.Runs.History.List.Length() == 1 })
			if tc.runHere {
				test.Type(h.d.Runs.Task, "new task")
				test.Tap(h.d.Runs.RunButton)
				h.waitFor("answer", func() bool { return h.d.Runs.Answer.Text == "42" })
			}
			close(gate)
			h.waitFor("the stored run's detail", func() bool { return h.fb.detailsServed() >= 1 })
			h.q.Until(200*time.Millisecond, func() bool { return false })
			if !hasBar(h.d.Runs.Mix.Bars, tc.wantTool) {
				t.Fatalf("tool mix %+v lacks %s", h.d.Runs.Mix.Bars, tc.wantTool)
			}
		})
	}
}

func hasBar(bars []Bar, label string) bool {
	for _, b := range bars {
		if b.Label == label {
			return true
		}
	}
	return false
}
