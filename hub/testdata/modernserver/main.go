// Command modernserver is an MCP server over stdio built on mcp-go, which
// speaks protocol 2026-07-28 (server/discover, no initialize) as well as
// the older ones. The hub's tests run it as a downstream of the current era.
//
// Tools:
//
//	echo     returns its "text" argument
//	confirm  asks the client for a name with an InputRequiredResult, then for
//	         a sample, and returns both (one round each)
//	grow     adds the tool "grown", which a client learns of by list_changed
package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

func main() {
	srv := mcpserver.NewMCPServer("modernserver", "1", mcpserver.WithToolCapabilities(true))
	srv.AddTool(mcpgo.NewTool("echo", mcpgo.WithString("text")), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("echo: " + req.GetString("text", "")), nil
	})
	srv.AddTool(mcpgo.NewTool("confirm"), confirm)
	srv.AddTool(mcpgo.NewTool("grow"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		srv.AddTool(mcpgo.NewTool("grown"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("grown"), nil
		})
		return mcpgo.NewToolResultText("grew"), nil
	})
	if err := mcpserver.ServeStdio(srv); err != nil {
		fmt.Fprintln(os.Stderr, "modernserver:", err)
		os.Exit(1)
	}
}

// confirm asks for a name first, then for a sample, in two rounds; the
// requestState names the round.
func confirm(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	responses := req.Params.InputResponses
	switch req.Params.RequestState {
	case "":
		return mcpserver.NewInputRequestBuilder("asked-name").Elicit("name", mcpgo.ElicitationParams{
			Message:         "your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}).ToolResult(), nil
	case "asked-name":
		answer := mcpserver.ElicitationResponse(responses, "name")
		if answer == nil {
			return mcpgo.NewToolResultError("no name in the answer"), nil
		}
		name, _ := answer.Content.(map[string]any)["name"].(string)
		return mcpserver.NewInputRequestBuilder("asked-sample:"+name).Sample("sample", mcpgo.CreateMessageParams{
			Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("a word for " + name)}},
			MaxTokens: 8,
		}).ToolResult(), nil
	}
	name, ok := strings.CutPrefix(req.Params.RequestState, "asked-sample:")
	sample := mcpserver.SamplingResponse(responses, "sample")
	if !ok || sample == nil {
		return mcpgo.NewToolResultError("unexpected state " + req.Params.RequestState), nil
	}
	text := ""
	if content, err := mcpgo.ParseSamplingContent(sample.Content); err == nil {
		if tc, ok := content.(mcpgo.TextContent); ok {
			text = tc.Text
		}
	}
	return mcpgo.NewToolResultText("confirmed " + name + " with " + text), nil
}
