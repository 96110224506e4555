package mcp

import (
	"context"

	"log/slog"
	"os"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// waitLimit bounds every wait in these tests; reaching it is a failure, not
// a measurement.
const waitLimit = 30 * time.Second

// quietLogger drops everything; set TOOLHUB_TEST_LOG=1 to see the logs.
func quietLogger() *slog.Logger {
	if os.Getenv("TOOLHUB_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// testHub starts a hub over specs, waits until every server has settled and
// closes it when the test ends. relay, when not nil, receives the hub's
// downstream notifications.
func testHub(t *testing.T, relay *Relay, specs ...hub.ServerSpec) *hub.Hub {
	t.Helper()
	opts := hub.Options{Logger: quietLogger(), CallTimeout: waitLimit, ConnectTimeout: waitLimit}
	if relay != nil {
		opts.OnNotification = relay.OnNotification
	}
	h, err := hub.New(specs, opts)
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	t.Cleanup(func() { _ = h.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := h.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	return h
}

// inProcess is the spec of an in-process downstream server.
func inProcess(name string, srv *mcpserver.MCPServer) hub.ServerSpec {
	return hub.ServerSpec{Name: name, Transport: hub.TransportInProcess, InProcess: srv, Locality: hub.LocalityLocal}
}

// testServer builds the MCP surface over cat and closes it with the test.
func testServer(t testing.TB, cat Catalog, opts Options) *Server {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quietLogger()
	}
	s, err := NewServer(cat, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// serveHTTP binds s on a free loopback port and serves it until the test
// ends.
func serveHTTP(t *testing.T, s *Server, opts HTTPOptions) *HTTPServer {
	t.Helper()
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	h, err := s.ListenHTTP(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return h
}

// clientOptions shape a test client.
type clientOptions struct {
	token  string // sent as a bearer token when set
	legacy bool   // use the initialize handshake (2025-11-25) instead of 2026-07-28
	listen bool   // keep a GET stream open for server-initiated notifications
	onNote func(mcpgo.JSONRPCNotification)
}

// connectHTTP connects an mcp-go client to url and initializes it.
func connectHTTP(t *testing.T, url string, o clientOptions) *mcpclient.Client {
	t.Helper()
	var topts []transport.StreamableHTTPCOption
	if o.token != "" {
		topts = append(topts, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + o.token}))
	}
	topts = append(topts, transport.WithHTTPLogger(quietLogger()))
	if o.listen {
		topts = append(topts, transport.WithContinuousListening())
	}
	c, err := mcpclient.NewStreamableHttpClient(url, topts...)
	if err != nil {
		t.Fatal(err)
	}
	initClient(t, c, o)
	return c
}

// initClient starts and initializes c, closing it with the test.
func initClient(t *testing.T, c *mcpclient.Client, o clientOptions) {
	t.Helper()
	if o.onNote != nil {
		c.OnNotification(o.onNote)
	}
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	var req mcpgo.InitializeRequest
	req.Params.ClientInfo = mcpgo.Implementation{Name: "toolhub-test", Version: "1"}
	if o.legacy {
		req.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	}
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
}

// callTool calls name with args and fails the test on a protocol error.
func callTool(t *testing.T, c *mcpclient.Client, name string, args any) *mcpgo.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	var req mcpgo.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

// listToolNames lists the client's tools by name.
func listToolNames(t *testing.T, c *mcpclient.Client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(res.Tools))
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	return names
}

// resultText joins the text content of a result.
func resultText(res *mcpgo.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := mcpgo.AsTextContent(c); ok {
			s += tc.Text
		}
	}
	return s
}
