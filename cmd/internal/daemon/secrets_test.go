package daemon_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
)

// The daemon reads ${keychain:NAME} from the store beside the config: a
// server whose secret is set serves, one whose secret is not set is
// listed invalid with the command that fixes it, and nothing else stops.
func TestDaemonReadsSecretsBesideTheConfig(t *testing.T) {
	url := authorizedMCPServer(t, "Bearer web-token-value")
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.json")
	cfgText := fmt.Sprintf(`{"mcpServers": {
  "web": {"url": %q, "headers": {"Authorization": "Bearer ${keychain:web.Authorization}"}},
  "gh": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${keychain:gh.GITHUB_TOKEN}"}}
}}`, url)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	store, err := daemon.OpenSecrets(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(store.Backend(), filepath.Join(dir, "secrets.json")) {
		t.Fatalf("store backend %q is not the file beside the config", store.Backend())
	}
	if err := store.Set("web.Authorization", "web-token-value"); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadServe(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler), NoConductor: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	d.Start(ctx)
	if err := d.Hub().WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	states := map[string]hub.ServerStatus{}
	for _, st := range d.Hub().Servers() {
		states[st.Name] = st
	}
	if web := states["web"]; web.State != hub.StateReady {
		t.Errorf("web, whose secret is set (it answers only the right Authorization): %+v", web)
	}
	gh := states["gh"]
	want := `secret "gh.GITHUB_TOKEN" is not set: run toolhub config set-secret gh GITHUB_TOKEN`
	if gh.State != hub.StateInvalid || !strings.Contains(gh.LastError, want) {
		t.Errorf("gh, whose secret is not set: %+v; want invalid with %q", gh, want)
	}
	for _, st := range states {
		if strings.Contains(st.LastError, "web-token-value") {
			t.Errorf("a secret's value was printed: %s", st.LastError)
		}
	}
}

// authorizedMCPServer serves one tool over Streamable HTTP on loopback, to
// requests whose Authorization header is want; others get 401.
func authorizedMCPServer(t *testing.T, want string) string {
	t.Helper()
	srv := mcpserver.NewMCPServer("authorized", "1.0.0", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("fetch"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("page"), nil
	})
	h := mcpserver.NewStreamableHTTPServer(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != want {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}
