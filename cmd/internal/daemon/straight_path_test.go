package daemon_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// TestOrchestrateOverStdioReachesTheEngineDirectly walks one orchestrate
// call over stdio with the scripted model: the call reaches the engine
// without any MCP client or server of toolhub's own in between (no
// downstream holds the conductor's tools), its step arrives as progress,
// and the run is on the daemon's bus and in the run log.
func TestOrchestrateOverStdioReachesTheEngineDirectly(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.RawTextReply("<think>\nNothing to call.\n</think>\n<message>Done.</message>"))
	defer orch.Close()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.json")
	body := `{"mcpServers": {}, "orchestrator": {"baseUrl": "` + orch.URL() + `/v1", "temperature": 0}}`
	if err := os.WriteFile(cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler), RunLogDir: filepath.Join(dir, "runs")})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d.Start(ctx)
	for _, tool := range d.Hub().Snapshot().Tools() {
		if tool.Name == "orchestrate" || tool.Name == "research" || strings.Contains(tool.Server, "conductor") {
			t.Fatalf("the catalog holds %s of server %s: the conductor must not be a downstream", tool.Name, tool.Server)
		}
	}
	for _, st := range d.Hub().Servers() {
		if strings.Contains(st.Name, "conductor") {
			t.Fatalf("a downstream server %q exists for the conductor", st.Name)
		}
	}

	c := stdioClient(ctx, t, d)
	progress := make(chan string, 8)
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			progress <- n.Params.AdditionalFields["message"].(string)
		}
	})
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "orchestrate"
	req.Params.Arguments = map[string]any{"task": "say done"}
	req.Params.Meta = &mcpgo.Meta{ProgressToken: "tok"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.HasPrefix(textOf(res), "Done.") {
		t.Fatalf("result %q (error %v), want the orchestrator's message", textOf(res), res.IsError)
	}
	if n := len(orch.Requests()); n != 1 {
		t.Fatalf("the orchestrator got %d requests, want 1", n)
	}
	select {
	case m := <-progress:
		if !strings.Contains(m, "model orchestrator") {
			t.Errorf("first progress %q, want the orchestrator's step", m)
		}
	case <-ctx.Done():
		t.Fatal("no progress notification arrived")
	}
	finished := d.Bus().Since(0, events.RunFinished)
	if len(finished) != 1 {
		t.Fatalf("%d runs finished on the bus, want 1", len(finished))
	}
	if _, err := d.Bus().Wait(ctx, 0, events.RunStored); err != nil {
		t.Fatalf("the run was not stored: %v", err)
	}
}

// stdioClient serves d's MCP surface over pipes and connects a client.
func stdioClient(ctx context.Context, t *testing.T, d *daemon.Daemon) *mcpclient.Client {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.MCP().ServeStdio(sctx, serverIn, serverOut) }()
	t.Cleanup(func() {
		stop()
		clientOut.Close()
		<-done
		serverOut.Close()
	})
	c := mcpclient.NewClient(transport.NewIO(clientIn, clientOut, nil))
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "straight-path", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

func textOf(res *mcpgo.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
