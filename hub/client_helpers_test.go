package hub

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// askerServer is an mcp-go server whose tools ask the calling client for a
// sample or for input, or report whether the hub's client reached the
// handler.
func askerServer() *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("asker", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("sample", mcpgo.WithString("text")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res, err := srv.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
			Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent(req.GetString("text", ""))}},
			MaxTokens: 16,
		}})
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		text, _ := res.Content.(mcpgo.TextContent)
		return mcpgo.NewToolResultText(text.Text), nil
	})
	srv.AddTool(mcpgo.NewTool("elicit", mcpgo.WithString("text")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
			Message:         req.GetString("text", ""),
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}})
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		content, _ := json.Marshal(res.Content)
		return mcpgo.NewToolResultText(string(res.Action) + " " + string(content)), nil
	})
	srv.AddTool(mcpgo.NewTool("whoami"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		c := ClientFrom(ctx)
		if c == nil {
			return mcpgo.NewToolResultText("no client"), nil
		}
		return mcpgo.NewToolResultText("client " + c.Session()), nil
	})
	return srv
}

// askerSpecs serves askerServer in process and over Streamable HTTP.
func askerSpecs(t *testing.T) map[string]ServerSpec {
	httpSrv := httptest.NewServer(mcpserver.NewStreamableHTTPServer(askerServer()))
	t.Cleanup(httpSrv.Close)
	return map[string]ServerSpec{
		"in-process": {Name: "asker", Transport: TransportInProcess, InProcess: askerServer(), Locality: LocalityLocal},
		// askerServer asks with server-initiated requests, which mcp-go
		// sends only on the older protocol's handshake.
		"http": {Name: "asker", Transport: TransportHTTP, URL: httpSrv.URL + "/mcp", Locality: LocalityLocal, Protocol: ProtocolLegacy},
	}
}

func callText(t *testing.T, h *Hub, ctx context.Context, tool string, args json.RawMessage) string {
	res, err := h.Call(ctx, tool, args, CallOptions{})
	if err != nil {
		return err.Error()
	}
	return resultText(t, res.Raw)
}

func awaitArrivals(t *testing.T, arrived <-chan string, n int) {
	t.Helper()
	timer := time.NewTimer(waitLimit)
	defer timer.Stop()
	for range n {
		select {
		case <-arrived:
		case <-timer.C:
			t.Fatalf("fewer than %d clients were asked", n)
		}
	}
}

// startHub runs a hub over specs until the test ends and waits for it.
func startHub(t *testing.T, specs ...ServerSpec) *Hub {
	t.Helper()
	return startHubWith(t, Options{}, specs...)
}
