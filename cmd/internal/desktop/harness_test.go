package desktop

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/ui"
)

// env is the desktop over a real daemon: a local "notes" server and a
// remote "web" server (both in-process MCP over HTTP), a scripted
// orchestrator, a preferences file and a run log in a temp dir.
type env struct {
	t       *testing.T
	dir     string
	daemon  *daemon.Daemon
	store   *policies.Store
	orch    *scriptedmodel.Server
	backend *Backend
	desk    *ui.Desktop
	q       *ui.Queue
}

func newEnv(t *testing.T, orch *scriptedmodel.Server) *env {
	t.Helper()
	dir := t.TempDir()
	notes := startMCP(t, "notes", "lookup", "found: the launch is on Oct 3")
	web := startMCP(t, "web", "fetch", "<html>remote page</html>")
	cfgText := fmt.Sprintf(`{
  "mcpServers": {
    "notes": {"url": %q, "locality": "local"},
    "web":   {"url": %q, "locality": "remote"}
  },
  "orchestrator": {"baseUrl": %q, "temperature": 0}
}`, notes, web, orch.URL()+"/v1")
	cfgPath := filepath.Join(dir, "toolhub.json")
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath, "flag")
	if err != nil {
		t.Fatal(err)
	}
	models, err := daemon.LoadModels(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, dir: dir, orch: orch, q: ui.NewQueue()}
	e.daemon, err = daemon.New(daemon.Options{Config: cfg, RunLogDir: filepath.Join(dir, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.daemon.Close() })
	e.store = openStore(t, filepath.Join(dir, policies.PreferencesFile))
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	e.daemon.Start(ctx)
	waitCtx, done := context.WithTimeout(ctx, 20*time.Second)
	defer done()
	if err := e.daemon.Hub().WaitSettled(waitCtx); err != nil {
		t.Fatalf("servers did not settle: %v", err)
	}
	e.backend = New(Options{Daemon: e.daemon, Config: cfg, Models: models, Store: e.store, RunLogDir: filepath.Join(dir, "runs")})
	t.Cleanup(e.backend.Close)
	e.desk = ui.New(test.NewTempApp(t), e.backend, ui.Options{Post: e.q.Post, ProbeEvery: time.Hour})
	t.Cleanup(e.desk.Stop)
	e.desk.Start()
	e.waitFor("preferences loaded", func() bool { return e.desk.Prefs.Status.Text == "Preferences loaded" })
	return e
}

func openStore(t *testing.T, path string) *policies.Store {
	t.Helper()
	s, err := policies.OpenStore(path, policies.StoreOptions{Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// startMCP serves one tool over Streamable HTTP on loopback.
func startMCP(t *testing.T, name, tool, reply string) string {
	t.Helper()
	s := mcpserver.NewMCPServer(name, "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool(tool, mcpgo.WithDescription(tool+" something"), mcpgo.WithString("q")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(reply), nil
		})
	ts := httptest.NewServer(mcpserver.NewStreamableHTTPServer(s))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// waitFor runs the UI goroutine until cond holds, failing after 20s.
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	if !e.q.Until(20*time.Second, cond) {
		e.t.Fatalf("timed out waiting for %s", what)
	}
}
