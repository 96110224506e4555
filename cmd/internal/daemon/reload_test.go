package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/testenv"
	"github.com/toolhub/toolhub/retriever"
)

// writeServers writes a config whose servers are the named URLs.
func writeServers(t *testing.T, path string, urls map[string]string) {
	t.Helper()
	var members []string
	for name, url := range urls {
		members = append(members, fmt.Sprintf("%q: {\"url\": %q, \"locality\": \"local\"}", name, url))
	}
	text := `{"mcpServers": {` + strings.Join(members, ", ") + `}}`
	if err := config.WriteFileAtomic(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func buildDaemon(t *testing.T, path string, watch bool) *daemon.Daemon {
	t.Helper()
	cfg, err := config.LoadServe(path, "flag")
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler), WatchConfig: watch, NoConductor: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.Start(ctx)
	t.Cleanup(func() {
		cancel()
		_ = d.Close()
	})
	return d
}

// takesCalls waits (on the hub's own signal) until tool answers.
func takesCalls(t *testing.T, h *hub.Hub, tool string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if ok, err := h.WaitTool(ctx, tool); !ok || err != nil {
		t.Fatalf("%s not in the catalog (%v): %+v", tool, err, h.Servers())
	}
	if _, err := h.Call(ctx, tool, []byte(`{}`), hub.CallOptions{}); err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
}

func TestReloadAppliesTheConfigToTheRunningHub(t *testing.T) {
	urlA, hitsA := testenv.CountingMCPServer(t, "fetch")
	urlB, _ := testenv.CountingMCPServer(t, "fetch")
	path := filepath.Join(t.TempDir(), "config.json")
	writeServers(t, path, map[string]string{"a": urlA})
	d := buildDaemon(t, path, false)
	takesCalls(t, d.Hub(), "a__fetch")

	writeServers(t, path, map[string]string{"a": urlA, "b": urlB})
	before := hitsA.Load()
	ch, err := d.Reload(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(ch.Added) != 1 || ch.Added[0] != "b" || !slices.Contains(ch.Unchanged, "a") || len(ch.Restarted) != 0 {
		t.Fatalf("changes %+v, want b added and a unchanged", ch)
	}
	if hitsA.Load() != before {
		t.Fatal("the unchanged server was contacted again by the reload")
	}
	takesCalls(t, d.Hub(), "b__fetch")
	if _, ok := d.Config().MCPServers["b"]; !ok {
		t.Fatal("Config() does not hold the reloaded file")
	}

	if err := os.WriteFile(path, []byte(`{"mcpServers": {`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Reload(t.Context()); err == nil {
		t.Fatal("a broken file was applied")
	}
	takesCalls(t, d.Hub(), "b__fetch")

	writeServers(t, path, map[string]string{"b": urlB})
	if ch, err = d.Reload(t.Context()); err != nil || len(ch.Removed) != 1 || ch.Removed[0] != "a" {
		t.Fatalf("removing a: %+v, %v", ch, err)
	}
	if _, ok := d.Hub().Snapshot().Lookup("a__fetch"); ok {
		t.Fatal("the removed server's tool is still offered")
	}
}

func TestWatchedConfigAppliesOnSave(t *testing.T) {
	urlA, _ := testenv.CountingMCPServer(t, "fetch")
	path := filepath.Join(t.TempDir(), "config.json")
	writeServers(t, path, map[string]string{})
	d := buildDaemon(t, path, true)
	sub := d.Bus().Subscribe(events.Filter{Mask: events.ServerChanged, Subject: "late"})
	defer sub.Cancel()
	added, _, err := config.AddServers(path, map[string]config.Server{"late": {Type: "http", URL: urlA, Locality: "local"}}, nil)
	if err != nil || len(added) != 1 {
		t.Fatalf("add: %v %v", added, err)
	}
	select {
	case <-sub.C():
	case <-time.After(30 * time.Second):
		t.Fatal("the saved config was not applied")
	}
	takesCalls(t, d.Hub(), "late__fetch")
}

// TestReloadAppliesTheOrchestrator: an orchestrator changed in the file is
// the one the next episode asks, with no restart.
func TestReloadAppliesTheOrchestrator(t *testing.T) {
	old, fresh := scriptedmodel.New(), scriptedmodel.New(scriptedmodel.RawTextReply("done"))
	fresh.SetLoop(true)
	t.Cleanup(old.Close)
	t.Cleanup(fresh.Close)
	path := filepath.Join(t.TempDir(), "config.json")
	write := func(url string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(`{"orchestrator": {"baseUrl": "`+url+`/v1", "temperature": 0}}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(old.URL())
	cfg, err := config.LoadServe(path, "flag")
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.Start(ctx)
	t.Cleanup(func() { cancel(); _ = d.Close() })

	write(fresh.URL())
	if _, err := d.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := d.RunEpisode(t.Context(), conductor.Request{Task: "hello", Mode: conductor.ModeTools}); err != nil {
		t.Fatal(err)
	}
	if len(fresh.Requests()) == 0 || len(old.Requests()) != 0 {
		t.Fatalf("after the reload the new orchestrator got %d requests and the old one %d", len(fresh.Requests()), len(old.Requests()))
	}
}

// A folder added to documents.roots while toolhub runs may be indexed over
// MCP at once; one taken out is refused from then on.
func TestReloadAppliesTheDocumentRoots(t *testing.T) {
	dir := t.TempDir()
	first, second := filepath.Join(dir, "first"), filepath.Join(dir, "second")
	for _, p := range []string{first, second} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "note.md"), []byte("# A note\n\nThe launch is on Oct 3.\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "config.json")
	write := func(roots ...string) {
		t.Helper()
		list, _ := json.Marshal(roots)
		text := fmt.Sprintf(`{"documents": {"dir": %q, "roots": %s}}`, filepath.Join(dir, "index"), list)
		if err := config.WriteFileAtomic(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	index := func(d *daemon.Daemon, folder string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		if ok, err := d.Hub().WaitTool(ctx, "index_documents"); !ok || err != nil {
			t.Fatalf("index_documents not offered (%v)", err)
		}
		args, _ := json.Marshal(map[string]string{"path": folder})
		res, err := d.Hub().Call(ctx, "index_documents", args, hub.CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Content []struct{ Text string } }
		if err := json.Unmarshal(res.Raw, &out); err != nil || len(out.Content) == 0 {
			t.Fatalf("index_documents answered %s (%v)", res.Raw, err)
		}
		return out.Content[0].Text
	}
	write(first)
	cfg, err := config.LoadServe(path, "flag")
	if err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: quiet, NoConductor: true,
		OpenIndex: func(ctx context.Context) (*retriever.Index, error) {
			return daemon.OpenIndex(ctx, cfg.Documents, false, quiet)
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d.Start(ctx)
	t.Cleanup(func() { cancel(); _ = d.Close() })
	if got := index(d, second); !strings.Contains(got, "not inside") && !strings.Contains(got, "outside") {
		t.Fatalf("a folder outside the roots was indexed: %s", got)
	}
	write(first, second)
	if _, err := d.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := index(d, second); !strings.Contains(got, "Indexed "+second) {
		t.Fatalf("the added root was refused: %s", got)
	}
	write(second)
	if _, err := d.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := index(d, first); strings.Contains(got, "Indexed ") {
		t.Fatalf("a root taken out of the file was still indexed: %s", got)
	}
}
