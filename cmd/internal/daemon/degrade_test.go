package daemon_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// A config entry that cannot be used (here a VS Code ${input:...}
// reference) disables that server with its reason; the rest serve, and
// config check still fails on it.
func TestBadEntryLeavesTheOthersServing(t *testing.T) {
	url, _ := testenv.CountingMCPServer(t, "fetch")
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	cfgText := fmt.Sprintf(`{"mcpServers": {
  "web": {"url": %q},
  "gh": {"url": "https://api.example.com/mcp", "headers": {"Authorization": "Bearer ${input:token}", "X-Key": "${SECRET_KEY}"}},
  "odd": {"type": "websocket", "url": "wss://example.com/mcp"}
}}`, url)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(cfgPath, config.SourceFlag); err == nil || !strings.Contains(err.Error(), cfgPath+":4:") {
		t.Fatalf("config check's view of the unknown type: got %v, want a problem at %s:4", err, cfgPath)
	}
	cfg, err := config.LoadServe(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatalf("serve's view: %v", err)
	}
	const secret = "do-not-print-this"
	lookup := func(name string) (string, bool) {
		if name == "SECRET_KEY" {
			return secret, true
		}
		return "", false
	}
	if _, err := cfg.Specs(lookup); err == nil || !strings.Contains(err.Error(), cfgPath+":3:") {
		t.Fatalf("config check's view: got %v, want a problem at %s:3", err, cfgPath)
	}

	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler), LookupEnv: lookup, NoConductor: true})
	if err != nil {
		t.Fatalf("a bad entry took the daemon down: %v", err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	d.Start(ctx)
	if err := d.Hub().WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}

	var gh, odd hub.ServerStatus
	for _, st := range d.Hub().Servers() {
		switch st.Name {
		case "gh":
			gh = st
		case "odd":
			odd = st
		}
	}
	if odd.State != hub.StateInvalid || !strings.Contains(odd.LastError, cfgPath+`:4:`) ||
		!strings.Contains(odd.LastError, `unknown type "websocket"`) {
		t.Errorf("the server of unknown type: %+v", odd)
	}
	wantReason := cfgPath + `:3:`
	if gh.State != hub.StateInvalid || !strings.Contains(gh.LastError, wantReason) ||
		!strings.Contains(gh.LastError, "is not a variable reference") {
		t.Errorf("the bad server's status: %+v, want invalid with a reason at %s", gh, wantReason)
	}
	if strings.Contains(gh.LastError, secret) {
		t.Error("the reason shows a secret value")
	}

	c := stdioClient(ctx, t, d)
	// As a client does: the first tools/list brings the surface up to date.
	listed, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range listed.Tools {
		names = append(names, tool.Name)
	}
	if !slices.Contains(names, "web__fetch") {
		t.Fatalf("tools/list %q lacks the good server's tool", names)
	}
	cases := []struct {
		name    string
		tool    string
		isError bool
		want    []string
	}{
		{"the good server's tool", "web__fetch", false, []string{"page"}},
		{"a tool of the bad server", "gh__search", true, []string{"server gh", "invalid", wantReason, "is not a variable reference"}},
		{"a tool of the server of unknown type", "odd__x", true, []string{"server odd", "invalid", `unknown type "websocket"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := mcpgo.CallToolRequest{}
			req.Params.Name = tc.tool
			res, err := c.CallTool(ctx, req)
			if err != nil {
				t.Fatalf("%v; servers %+v", err, d.Hub().Servers())
			}
			text := textOf(res)
			if res.IsError != tc.isError {
				t.Fatalf("isError %v, want %v: %s", res.IsError, tc.isError, text)
			}
			for _, w := range tc.want {
				if !strings.Contains(text, w) {
					t.Errorf("answer %q lacks %q", text, w)
				}
			}
			if strings.Contains(text, secret) {
				t.Error("the answer shows a secret value")
			}
		})
	}
}
