package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// longSteps are steps whose names, errors and results are far wider than
// any window.
var longSteps = []RunStep{
	{Kind: "model", Name: "orchestrator", Purpose: "decide", Locality: "local", Wall: time.Second,
		Input: `{"messages": [{"role": "user", "content": "what is in my notes"}]}`, Output: "calling search_documents"},
	{Index: 1, Kind: "tool", Name: "everything__echo", Refused: true,
		Error: "not allowed: tool everything__echo: off in the preferences", Input: `{"message": "hi"}`},
	{Index: 2, Kind: "tool", Name: "github__search_code_in_a_very_long_named_repository_" + strings.Repeat("x", 200),
		Locality: "remote", Error: "transport error: " + strings.Repeat("connection reset by peer; ", 20),
		Input: `{"query": "` + strings.Repeat("needle ", 100) + `"}`, Output: strings.Repeat("result line\n", 50)},
	{Index: 3, Kind: "observation", Text: "the orchestrator asked for python, which is not offered"},
}

func runWith(t *testing.T, steps []RunStep, forced bool) *harness {
	t.Helper()
	h := newHarness(t, func(fb *fakeBackend) { fb.runSteps, fb.runForced = steps, forced })
	h.d.Select(TabRuns)
	test.Type(h.d.Runs.Task, "what do my notes say")
	test.Tap(h.d.Runs.RunButton)
	h.waitFor("the run's end", func() bool { return !h.d.Runs.running && h.d.Runs.Answer.Text != "" })
	return h
}

func TestStepExpandsToItsInputAndOutput(t *testing.T) {
	h := runWith(t, longSteps, false)
	if len(h.d.Runs.StepRows) != len(longSteps) {
		t.Fatalf("%d step rows, want %d", len(h.d.Runs.StepRows), len(longSteps))
	}
	row := h.d.Runs.StepRows[0]
	if row.Details.Visible() {
		t.Fatal("a step is expanded before it is asked to be")
	}
	test.Tap(row.Toggle)
	if !row.Details.Visible() {
		t.Fatal("tapping the step did not expand it")
	}
	for _, want := range []string{"Input:", `"what is in my notes"`, "Output:", "calling search_documents"} {
		if !strings.Contains(row.Details.Text, want) {
			t.Errorf("expanded step lacks %q:\n%s", want, row.Details.Text)
		}
	}
	test.Tap(row.Toggle)
	if row.Details.Visible() {
		t.Fatal("a second tap did not fold the step")
	}
}

func TestStepSummaries(t *testing.T) {
	cases := []struct {
		name    string
		step    RunStep
		want    string
		notWant string
	}{
		{"refused tool says why", longSteps[1], "tool everything__echo · not sent: everything__echo is off in the preferences", "$0"},
		{"observation shows its text", longSteps[3], "note: the orchestrator asked for python, which is not offered", "$0"},
		{"model call names its purpose", longSteps[0], "model orchestrator (decide) · local · 1.0s · $0", ""},
		{"failed call shows the error", RunStep{Kind: "tool", Name: "a__b", Error: "boom"}, "tool a__b · — · $0 · ✗ boom", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := stepSummary(tc.step)
			if !strings.Contains(got, tc.want) || (tc.notWant != "" && strings.Contains(got, tc.notWant)) {
				t.Fatalf("summary %q, want %q and not %q", got, tc.want, tc.notWant)
			}
		})
	}
}

// TestWindowNeverGrowsByItself: a run whose steps are far wider than the
// window leaves the window's minimum size where it was, so the window
// neither grows nor saves a grown size; at 800×600 the content fits.
func TestWindowNeverGrowsByItself(t *testing.T) {
	h := newHarness(t, func(fb *fakeBackend) { fb.runSteps = longSteps })
	h.d.Window.Resize(fyne.NewSize(800, 600))
	before := h.d.Window.Content().MinSize()
	h.d.Select(TabRuns)
	test.Type(h.d.Runs.Task, "what do my notes say")
	test.Tap(h.d.Runs.RunButton)
	h.waitFor("the run's end", func() bool { return !h.d.Runs.running && h.d.Runs.Answer.Text != "" })
	for _, r := range h.d.Runs.StepRows {
		r.SetExpanded(true)
	}
	after := h.d.Window.Content().MinSize()
	if after.Width > before.Width || after.Width > 800 || after.Height > 600 {
		t.Fatalf("content minimum grew from %v to %v (window 800×600)", before, after)
	}
	if size := h.d.Window.Canvas().Size(); size.Width > 800 || size.Height > 600 {
		t.Fatalf("the window grew to %v", size)
	}
}

func TestRunStatusWordsMatchWhatHappened(t *testing.T) {
	h := runWith(t, nil, true)
	if got := h.d.Runs.State.Text; !strings.HasPrefix(got, "answered by the fallback · ") || !strings.Contains(got, "1 tool call") {
		t.Fatalf("state %q", got)
	}
	if got := h.d.Runs.Answer.Text; !strings.Contains(got, "answered by the fallback policy") {
		t.Fatalf("answer %q does not say the fallback gave it", got)
	}
	// Cancel after the end does nothing: no "Cancelling…" left behind.
	h.d.Runs.CancelRun()
	if got := h.d.Runs.State.Text; strings.Contains(got, "Cancelling") {
		t.Fatalf("cancel after the run's end left %q", got)
	}
	cases := []struct {
		status string
		forced bool
		want   string
	}{
		{"answered", false, "answered"},
		{"answered", true, "answered by the fallback"},
		{"no_answer", false, "no answer"},
		{"failed", false, "failed"},
		{"budget_exhausted", false, "stopped at the budget"},
	}
	for _, tc := range cases {
		if got := statusText(tc.status, tc.forced); got != tc.want {
			t.Errorf("statusText(%q, %v) = %q, want %q", tc.status, tc.forced, got, tc.want)
		}
	}
}

func TestExpandStepOpensThatStepAsItArrives(t *testing.T) {
	h := newHarness(t, func(fb *fakeBackend) { fb.runSteps = longSteps })
	h.d.Runs.ExpandStep(2)
	h.d.Runs.RunTask("what do my notes say")
	h.waitFor("the run's end", func() bool { return !h.d.Runs.running && h.d.Runs.Answer.Text != "" })
	for i, r := range h.d.Runs.StepRows {
		if got := r.Details.Visible(); got != (i == 1) {
			t.Errorf("step %d expanded: %v", i+1, got)
		}
	}
	if !strings.Contains(h.d.Runs.StepRows[1].Details.Text, "Not sent:\neverything__echo is off in the preferences") {
		t.Errorf("the refused step's details: %s", h.d.Runs.StepRows[1].Details.Text)
	}
}
