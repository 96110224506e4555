package cli

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/mcp"
)

// ownTools are toolhub's own tools that are not in the hub's catalog: the
// MCP surface serves them itself (the conductor's orchestrate and research).
var ownTools = map[string]bool{mcp.OrchestrateToolName: true, mcp.ResearchToolName: true}

// callOwnTool calls one of ownTools through the MCP surface's own handler,
// as an MCP client's tools/call reaches it, and returns its result as the
// raw MCP result. found is false when the daemon serves no such tool.
func callOwnTool(ctx context.Context, d *daemon.Daemon, name, argsJSON string, kv []string) (res *hub.CallResult, found bool, err error) {
	tool := d.MCP().MCPServer().GetTool(name)
	if tool == nil {
		return nil, false, nil
	}
	schema, err := json.Marshal(tool.Tool.InputSchema)
	if err != nil {
		return nil, true, fmt.Errorf("encode %s's input schema: %w", name, err)
	}
	payload, err := buildArgumentsFor(schema, argsJSON, kv)
	if err != nil {
		return nil, true, err
	}
	var args map[string]any
	if err := json.Unmarshal(payload, &args); err != nil {
		return nil, true, usageError("arguments of %s: %v", name, err)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	out, err := tool.Handler(ctx, req)
	if err != nil {
		return nil, true, fmt.Errorf("call %s: %w", name, err)
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, true, fmt.Errorf("encode %s's result: %w", name, err)
	}
	return &hub.CallResult{Raw: raw, IsError: out.IsError}, true, nil
}
