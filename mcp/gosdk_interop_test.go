package mcp

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// TestGoSDKInterop drives toolhub, with server-everything behind it, from the
// official Go SDK's client over HTTP and over stdio: each call a current
// client makes must be answered as the protocol allows.
func TestGoSDKInterop(t *testing.T) {
	transports := []struct {
		name    string
		connect func(t *testing.T, srv *Server) sdk.Transport
	}{
		{"http", func(t *testing.T, srv *Server) sdk.Transport {
			h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
			return &sdk.StreamableClientTransport{Endpoint: h.URL(), MaxRetries: -1,
				HTTPClient: &http.Client{Transport: bearerTransport{token: testToken}}}
		}},
		{"stdio", stdioTransport},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) { runGoSDKInterop(t, tr.connect) })
	}
}

func runGoSDKInterop(t *testing.T, connect func(*testing.T, *Server) sdk.Transport) {
	everything := testenv.NPMBin(t, "mcp-server-everything")
	stdinCopy := filepath.Join(t.TempDir(), "stdin.jsonl")
	relay := NewRelay()
	h := testHub(t, relay, hub.ServerSpec{
		Name: "everything", Transport: hub.TransportStdio, Command: "/bin/sh",
		Args:     []string{"-c", `tee -a "$0" | "$1" stdio`, stdinCopy, everything},
		Locality: hub.LocalityLocal,
	})
	srv := testServer(t, h, Options{Expose: ExposeDirect, Relay: relay})
	var progress atomic.Int64
	client := sdk.NewClient(&sdk.Implementation{Name: "gosdk-interop", Version: "1"}, &sdk.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *sdk.ProgressNotificationClientRequest) {
			progress.Add(1)
		},
	})
	cs, err := client.Connect(t.Context(), connect(t, srv), nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	t.Logf("protocol %s", cs.InitializeResult().ProtocolVersion)

	t.Run("tools/list", func(t *testing.T) {
		res, err := cs.ListTools(t.Context(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !hasSDKTool(res.Tools, "everything__echo") {
			t.Errorf("everything__echo not listed among %d tools", len(res.Tools))
		}
	})
	t.Run("tools/call echo", func(t *testing.T) {
		res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: "everything__echo",
			Arguments: map[string]any{"message": "interop"}})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || !strings.Contains(sdkText(res), "interop") {
			t.Errorf("echo answered %q (error %v)", sdkText(res), res.IsError)
		}
	})
	t.Run("tools/call with progress", func(t *testing.T) {
		params := &sdk.CallToolParams{Name: "everything__trigger-long-running-operation",
			Arguments: map[string]any{"duration": 1, "steps": 3}}
		params.SetProgressToken("interop-progress")
		res, err := cs.CallTool(t.Context(), params)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			t.Errorf("long operation failed: %s", sdkText(res))
		}
		if progress.Load() == 0 {
			t.Error("no progress notification reached the client")
		}
	})
	t.Run("ping", func(t *testing.T) {
		if err := cs.Ping(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("logging/setLevel", func(t *testing.T) {
		if err := cs.SetLoggingLevel(t.Context(), &sdk.SetLoggingLevelParams{Level: "warning"}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("cancel a long call", func(t *testing.T) {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		params := &sdk.CallToolParams{Name: "everything__trigger-long-running-operation",
			Arguments: map[string]any{"duration": 60, "steps": 120}}
		params.SetProgressToken("interop-cancel")
		before := progress.Load()
		go func() {
			_, err := cs.CallTool(ctx, params)
			done <- err
		}()
		waitFor(t, "progress of the long call", func() bool { return progress.Load() > before })
		cancel()
		if err := <-done; err == nil {
			t.Error("the cancelled call returned a result")
		}
		waitFor(t, "notifications/cancelled on server-everything's stdin", func() bool {
			data, _ := os.ReadFile(stdinCopy)
			return strings.Contains(string(data), `"notifications/cancelled"`)
		})
		if err := cs.Ping(t.Context(), nil); err != nil {
			t.Errorf("the client is unusable after cancelling: %v", err)
		}
	})
}

// stdioTransport serves srv over a pair of pipes until the test ends.
func stdioTransport(t *testing.T, srv *Server) sdk.Transport {
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(ctx, toServer, fromServer)
		_ = fromServer.Close()
	}()
	t.Cleanup(func() {
		cancel()
		_ = clientOut.Close()
		if err := <-done; err != nil {
			t.Errorf("serve stdio: %v", err)
		}
	})
	return &sdk.IOTransport{Reader: clientIn, Writer: clientOut}
}

// bearerTransport adds the bearer token to every request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func hasSDKTool(tools []*sdk.Tool, name string) bool {
	for _, tool := range tools {
		if tool.Name == name {
			return true
		}
	}
	return false
}

func sdkText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
