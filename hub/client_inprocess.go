package hub

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// inProcessClient answers an in-process server's RequestSampling,
// RequestElicitation and RequestRoots. The in-process transport runs the
// server's handlers on the hub's call context, so the calling client is
// found in ctx exactly as a built-in handler finds it with ClientFrom.
type inProcessClient struct{ d *downstream }

var (
	_ mcpserver.SamplingHandler    = inProcessClient{}
	_ mcpserver.ElicitationHandler = inProcessClient{}
	_ mcpserver.RootsHandler       = inProcessClient{}
)

// newInProcessTransport connects to srv with the calling client's
// sampling, elicitation and roots behind it.
func (d *downstream) newInProcessTransport(srv *mcpserver.MCPServer) *inProcessTransport {
	return newInProcessTransport(srv, inProcessClient{d: d})
}

func (c inProcessClient) CreateMessage(ctx context.Context, req mcpgo.CreateMessageRequest) (*mcpgo.CreateMessageResult, error) {
	var result mcpgo.CreateMessageResult
	if err := c.ask(ctx, string(mcpgo.MethodSamplingCreateMessage), req.CreateMessageParams, &result); err != nil {
		return nil, err
	}
	content, err := mcpgo.ParseSamplingContent(result.Content)
	if err != nil {
		return nil, fmt.Errorf("sampling result: %w", err)
	}
	result.Content = content
	return &result, nil
}

func (c inProcessClient) Elicit(ctx context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	var result mcpgo.ElicitationResult
	if err := c.ask(ctx, string(mcpgo.MethodElicitationCreate), req.Params, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

func (c inProcessClient) ListRoots(ctx context.Context, _ mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	var result mcpgo.ListRootsResult
	if err := c.ask(ctx, string(mcpgo.MethodListRoots), struct{}{}, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

// ask forwards one request as JSON and decodes the client's answer.
func (c inProcessClient) ask(ctx context.Context, method string, params, result any) error {
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: encode params: %w", method, err)
	}
	answer, err := c.d.answerServerRequest(ctx, method, raw)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(answer, result); err != nil {
		return fmt.Errorf("%s: decode the client's answer: %w", method, err)
	}
	return nil
}
