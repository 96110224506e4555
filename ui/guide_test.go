package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

func newFirstRun(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t, func(fb *fakeBackend) {
		fb.guide.setup = SetupState{}
		fb.clients = []ClientConfig{{Client: "Claude Desktop", Path: "/home/me/.config/Claude/claude_desktop_config.json",
			Servers: []string{"everything"}}}
	})
	h.waitFor("the guide to open", func() bool { return h.d.Guide.Visible() })
	h.waitFor("presets", func() bool { return len(h.d.Guide.Model.Preset.Options) == 2 })
	return h
}

func TestGuideOpensOnFirstRunOnly(t *testing.T) {
	h := newFirstRun(t)
	if h.d.Guide.Page != GuideModel || h.d.Guide.Next.Text != "Skip" {
		t.Fatalf("guide on page %d with %q", h.d.Guide.Page, h.d.Guide.Next.Text)
	}
	test.Tap(h.d.Guide.Next)
	test.Tap(h.d.Guide.Next)
	if h.d.Guide.Next.Text != "Finish" {
		t.Fatalf("last page button %q", h.d.Guide.Next.Text)
	}
	test.Tap(h.d.Guide.Next)
	if h.d.Guide.Visible() {
		t.Fatal("Finish left the guide open")
	}
	// A new window on the same app (the next start) does not open it again.
	again := New(h.d.App, h.fb, Options{Post: h.q.Post})
	defer again.Stop()
	again.Start()
	h.q.Drain()
	if again.Guide.Visible() {
		t.Fatal("the guide opened again after it was finished")
	}
	h.checkNothingOnUI()
}

func TestGuideTestsAndSavesTheModel(t *testing.T) {
	h := newFirstRun(t)
	m := h.d.Guide.Model
	test.Type(m.URL, "http://down/v1")
	test.Tap(m.Test)
	h.waitFor("the failed test", func() bool { return strings.HasPrefix(m.Result.Text, "✗") })
	if !strings.Contains(m.Result.Text, "connection refused") {
		t.Fatalf("failed test says %q", m.Result.Text)
	}
	m.URL.SetText("http://up/v1")
	test.Tap(m.Test)
	h.waitFor("the test", func() bool { return strings.HasPrefix(m.Result.Text, "✓") })
	if !strings.Contains(m.Result.Text, "orch-8b") {
		t.Fatalf("test result %q does not list the served model", m.Result.Text)
	}
	test.Type(m.Model, "orch-8b")
	test.Tap(m.Save)
	h.waitFor("saved", func() bool { return strings.HasPrefix(m.Result.Text, "✓ Saved") })
	if got := h.fb.guide.saved; len(got) != 1 || got[0] != (ModelSetup{BaseURL: "http://up/v1", Model: "orch-8b"}) {
		t.Fatalf("saved %+v", got)
	}
	if h.d.Guide.Next.Text != "Next" {
		t.Fatalf("after saving, the button says %q", h.d.Guide.Next.Text)
	}
	h.checkNothingOnUI()
}

func TestGuidePresetFillsTheServer(t *testing.T) {
	h := newFirstRun(t)
	m := h.d.Guide.Model
	m.Preset.SetSelected("llama.cpp")
	if m.URL.Text != "http://127.0.0.1:8080/v1" || m.Model.Text != "orch-gguf" {
		t.Fatalf("preset filled %q %q", m.URL.Text, m.Model.Text)
	}
	for _, want := range []string{"llama-server -hf x", "not found on the PATH", "no NVIDIA GPU found"} {
		if !strings.Contains(m.PresetInfo.Text, want) {
			t.Errorf("preset info lacks %q: %s", want, m.PresetInfo.Text)
		}
	}
	test.Tap(m.Save)
	h.waitFor("saved", func() bool { return strings.HasPrefix(m.Result.Text, "✓ Saved") })
	if got := h.fb.guide.saved; len(got) != 1 || got[0].Preset != "llama.cpp" {
		t.Fatalf("saved %+v", got)
	}
}

func TestGuideFindsOtherAppsServers(t *testing.T) {
	h := newFirstRun(t)
	test.Tap(h.d.Guide.Next) // skip the model
	if h.d.Guide.Page != GuideServers {
		t.Fatalf("on page %d", h.d.Guide.Page)
	}
	test.Tap(h.d.Guide.FindServers)
	h.waitFor("the discovered servers", func() bool {
		return h.d.Servers.Importer != nil && len(h.d.Servers.Importer.Picks) > 0
	})
	if h.d.Guide.Next.Text != "Next" {
		t.Fatalf("after finding servers the button says %q", h.d.Guide.Next.Text)
	}
}

// Opened from Help with an orchestrator configured, the guide starts from
// it (its preset too), not from the placeholders.
func TestGuideStartsFromTheConfiguredOrchestrator(t *testing.T) {
	cases := []struct {
		name   string
		setup  ModelSetup
		preset string
	}{
		{"own server", ModelSetup{BaseURL: "http://gpu-box:8000/v1", Model: "nvidia/Orchestrator-8B"}, ownServer},
		{"preset", ModelSetup{BaseURL: "http://127.0.0.1:8080/v1", Model: "orch-gguf", Preset: "llama.cpp"}, "llama.cpp"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, func(fb *fakeBackend) {
				fb.guide.setup = SetupState{ModelConfigured: true, Servers: 1, Folders: 1, Model: tc.setup}
			})
			if h.d.Guide.Visible() {
				t.Fatal("the guide opened by itself with everything configured")
			}
			h.d.Guide.Open()
			m := h.d.Guide.Model
			h.waitFor("the configured orchestrator", func() bool { return m.URL.Text == tc.setup.BaseURL })
			if m.Model.Text != tc.setup.Model || m.Preset.Selected != tc.preset {
				t.Fatalf("guide shows %q %q preset %q", m.URL.Text, m.Model.Text, m.Preset.Selected)
			}
			if !strings.Contains(m.Result.Text, "Configured now") {
				t.Fatalf("result %q", m.Result.Text)
			}
			h.checkNothingOnUI()
		})
	}
}
