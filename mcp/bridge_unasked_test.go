package mcp

import (
	"context"
	"errors"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// holder is an in-process downstream whose "hold" tool tells started that
// it runs and then waits for its context to end, which it tells ended.
func holder(started, ended chan<- struct{}) *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("holder", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("hold"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		started <- struct{}{}
		<-ctx.Done()
		ended <- struct{}{}
		return mcpgo.NewToolResultText("ended"), nil
	})
	return srv
}

// TestModernCallOfAClientThatCanBeAskedNothing: a 2026-07-28 client that
// declared no sampling, elicitation or roots can never be asked for
// input, so its call opens no exchange (it runs on the client's own
// request), and cancelling the request ends the downstream call; a client
// that declared sampling gets an exchange, in which a downstream request
// could wait.
func TestModernCallOfAClientThatCanBeAskedNothing(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opts      []mcpclient.ClientOption
		exchanges int
	}{
		{name: "nothing declared", exchanges: 0},
		{name: "sampling declared", opts: []mcpclient.ClientOption{
			mcpclient.WithSamplingHandler(&answeringClient{name: "a"})}, exchanges: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			started, ended := make(chan struct{}, 1), make(chan struct{}, 1)
			h := testHub(t, nil, inProcess("holder", holder(started, ended)))
			s := testServer(t, h, Options{})
			c := connectModern(t, serveHTTP(t, s, HTTPOptions{}).URL(), tc.opts...)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			returned := make(chan error, 1)
			go func() {
				var req mcpgo.CallToolRequest
				req.Params.Name = "holder__hold"
				_, err := c.CallTool(ctx, req)
				returned <- err
			}()
			awaitSignal(t, started, "the downstream call to start")
			if n := s.bridges.count(); n != tc.exchanges {
				t.Errorf("%d exchanges open while the call runs, want %d", n, tc.exchanges)
			}
			cancel()
			awaitSignal(t, ended, "the downstream call to end after the client cancelled")
			if err := <-returned; !errors.Is(err, context.Canceled) {
				t.Errorf("the cancelled call returned %v, want context.Canceled", err)
			}
		})
	}
}

func awaitSignal(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(waitLimit):
		t.Fatalf("waited %s for %s", waitLimit, what)
	}
}
