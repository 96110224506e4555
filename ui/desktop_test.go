package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
)

// harness drives a Desktop over a fake backend; the test goroutine is the
// UI goroutine and runs what the bridge posts.
type harness struct {
	t  *testing.T
	d  *Desktop
	fb *fakeBackend
	q  *Queue
	ui int64 // the UI goroutine's id
}

func newHarness(t *testing.T, setup func(*fakeBackend)) *harness {
	t.Helper()
	fb := newFakeBackend()
	if setup != nil {
		setup(fb)
	}
	q := NewQueue()
	d := New(test.NewTempApp(t), fb, Options{Post: q.Post, ProbeEvery: time.Hour})
	t.Cleanup(d.Stop)
	h := &harness{t: t, d: d, fb: fb, q: q, ui: goroutineID()}
	d.Start()
	h.waitFor("preferences loaded", func() bool { return h.d.Prefs.loaded })
	return h
}

// waitFor runs the UI goroutine until cond holds, failing after 5s.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	if !h.q.Until(5*time.Second, cond) {
		h.t.Fatalf("timed out waiting for %s", what)
	}
}

func (h *harness) checkNothingOnUI() {
	h.t.Helper()
	if n := h.fb.calledOn(h.ui); n > 0 {
		h.t.Fatalf("%d backend calls ran on the UI goroutine", n)
	}
}

func TestHeaderShowsEndpointHealthAndCopiesSnippets(t *testing.T) {
	h := newHarness(t, nil)
	h.waitFor("endpoint", func() bool { return strings.Contains(h.d.Header.EndpointLabel.Text, "127.0.0.1:8765") })
	h.waitFor("health", func() bool { return strings.Contains(h.d.Header.HealthLabel.Text, "GPU RTX 4090") })
	btn := h.d.Header.CopyButtons["claude mcp add"]
	if btn == nil {
		t.Fatalf("no copy button for claude mcp add; have %v", h.d.Header.CopyButtons)
	}
	test.Tap(btn)
	if got := h.d.App.Clipboard().Content(); !strings.HasPrefix(got, "claude mcp add") {
		t.Fatalf("clipboard = %q", got)
	}
	if got := h.d.Header.CopiedNote.Text; got != "✓ Copied for claude mcp add" {
		t.Fatalf("after copying the header says %q", got)
	}
	h.checkNothingOnUI()
}

func TestSliderSavesPreferences(t *testing.T) {
	h := newHarness(t, nil)
	h.d.Prefs.Cost.SetValue(0.8)
	h.waitFor("saved", func() bool {
		p, _ := h.fb.saved()
		return p.CostWeight == 0.8 && strings.HasPrefix(h.d.Prefs.Status.Text, "Saved")
	})
	if !strings.Contains(h.d.Prefs.Sentence.Text, "cost weight 0.80") {
		t.Fatalf("preview not refreshed: %q", h.d.Prefs.Sentence.Text)
	}
	h.checkNothingOnUI()
}

func TestLocalOnlyHidesRemoteToolsAndShowsBadge(t *testing.T) {
	h := newHarness(t, nil)
	if h.d.Header.LocalOnly.Visible() {
		t.Fatal("badge shown before local-only was chosen")
	}
	if !strings.Contains(h.d.Prefs.Allowed.Text, "github__search_code") {
		t.Fatalf("remote tool missing before local-only: %q", h.d.Prefs.Allowed.Text)
	}
	h.d.Prefs.Privacy.SetSelected(privacyChoices[0].label)
	h.waitFor("local-only saved", func() bool {
		p, _ := h.fb.saved()
		return p.Privacy == PrivacyLocalOnly && strings.HasPrefix(h.d.Prefs.Status.Text, "Saved")
	})
	if strings.Contains(h.d.Prefs.Allowed.Text, "github__search_code") || strings.Contains(h.d.Prefs.Allowed.Text, "gpt-5") {
		t.Fatalf("remote tools still allowed: %q", h.d.Prefs.Allowed.Text)
	}
	if !h.d.Header.LocalOnly.Visible() {
		t.Fatal("local-only badge hidden")
	}
}

func TestWeightOffIsSaved(t *testing.T) {
	h := newHarness(t, nil)
	sel := h.d.Prefs.Weights["tool:python"]
	if sel == nil {
		t.Fatalf("no weight choice for python; have %d", len(h.d.Prefs.Weights))
	}
	sel.SetSelected(string(WeightOff))
	h.waitFor("python off", func() bool {
		p, _ := h.fb.saved()
		return p.Tools["python"] == WeightOff && strings.HasPrefix(h.d.Prefs.Status.Text, "Saved")
	})
	if strings.Contains(h.d.Prefs.Allowed.Text, "python") {
		t.Fatalf("python still allowed: %q", h.d.Prefs.Allowed.Text)
	}
}

func TestBudgetEntry(t *testing.T) {
	tests := []struct {
		name, text string
		want       float64
		wantErr    bool
	}{
		{"dollars", "0.25", 0.25, false},
		{"with sign", "$1.5", 1.5, false},
		{"empty is no budget", " ", 0, false},
		{"negative", "-1", 0, true},
		{"words", "ten", 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseBudget(tc.text)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Fatalf("parseBudget(%q) = %v, %v; want %v, error %v", tc.text, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestPreviewFollowsNewTools(t *testing.T) {
	h := newHarness(t, nil)
	h.fb.mu.Lock()
	h.fb.tools["memory__read_graph"] = false
	h.fb.mu.Unlock()
	h.d.Prefs.refreshPreview()
	h.waitFor("the new tool's weight", func() bool { return h.d.Prefs.Weights["tool:memory__read_graph"] != nil })
	if !strings.Contains(h.d.Prefs.Allowed.Text, "memory__read_graph") {
		t.Fatalf("new tool not in the preview: %q", h.d.Prefs.Allowed.Text)
	}
}
