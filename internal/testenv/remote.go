package testenv

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// CountingMCPServer serves one tool (answering "page") over Streamable
// HTTP on loopback until the test ends, counting every request that
// reaches it, and returns its URL.
func CountingMCPServer(t *testing.T, tool string) (string, *atomic.Int64) {
	t.Helper()
	srv := mcpserver.NewMCPServer("counting", "1.0.0", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool(tool), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("page"), nil
	})
	var hits atomic.Int64
	h := mcpserver.NewStreamableHTTPServer(srv)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp", &hits
}
