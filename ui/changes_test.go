package ui

import (
	"strings"
	"testing"
)

// The window shows a server's new state, a new tool and a run stored by
// someone else as soon as the backend reports them; nothing polls (the
// harness probes health once an hour).
func TestPushedChangesRefreshTheTabs(t *testing.T) {
	cases := []struct {
		name   string
		change Change
		apply  func(*fakeBackend)
		shown  func(*harness) bool
	}{
		{"server state", ChangeServers, func(f *fakeBackend) {
			f.servers[1].Health, f.servers[1].State, f.servers[1].LastError = HealthOK, "ready", ""
		}, func(h *harness) bool {
			r := h.d.Servers.Rows["flaky"]
			return r != nil && r.Dot.FillColor == healthColor(HealthOK)
		}},
		{"new tool", ChangeServers, func(f *fakeBackend) { f.tools["memory__read_graph"] = false },
			func(h *harness) bool { return h.d.Prefs.Weights["tool:memory__read_graph"] != nil }},
		{"preferences", ChangePreferences, func(f *fakeBackend) { f.tools["fetch__get"] = true },
			func(h *harness) bool { return h.d.Prefs.Weights["tool:fetch__get"] != nil }},
		{"preferences saved elsewhere", ChangePreferences, func(f *fakeBackend) { f.prefs.CostWeight = 0.9 },
			func(h *harness) bool {
				return h.d.Prefs.Cost.Value == 0.9 && h.d.Prefs.Status.Text == "Preferences changed outside the app"
			}},
		{"stored run", ChangeRuns, func(f *fakeBackend) {
			f.runs = append(f.runs, RunDetail{RunSummary: RunSummary{ID: "r-from-a-client", Task: "from claude code"}})
		}, func(h *harness) bool {
			for _, r := range h.d.Runs.History.runs {
				if strings.Contains(r.Task, "from claude code") {
					return true
				}
			}
			return false
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.waitFor("rows", func() bool { return len(h.d.Servers.Rows) == 3 })
			h.waitFor("history", func() bool { return h.d.Runs.History.List != nil })
			if tc.shown(h) {
				t.Fatal("shown before the change")
			}
			h.fb.mu.Lock()
			tc.apply(h.fb)
			h.fb.mu.Unlock()
			h.fb.push(tc.change)
			h.waitFor(tc.name, func() bool { return tc.shown(h) })
			h.checkNothingOnUI()
		})
	}
}
