package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// callUnasked is forwardModern for a 2026-07-28 client that declared no
// sampling, elicitation or roots. The hub asks a client only for what it
// declared (hub.RequireClient), so no downstream request can make such a
// call wait for the client's input: it runs on the client's own request,
// ending with it, with no exchange to park and no goroutine of its own.
func (s *Server) callUnasked(ctx context.Context, name string, args json.RawMessage, server string, token mcpgo.ProgressToken) (*mcpgo.CallToolResult, error) {
	route := s.newRoute(ctx, server, token)
	remove := s.calls.add(route)
	client := &bridgeClient{asker: refusingAsker{}}
	res, refused := s.callCatalogModern(hub.WithClient(ctx, client), name, args, callOptions(route.hubToken))
	route.awaitDelivered(ctx)
	remove()
	if refused != nil {
		return nil, refused
	}
	return res, nil
}

// refusingAsker is the asker of a client that can be asked nothing.
type refusingAsker struct{}

func (refusingAsker) ask(_ context.Context, inputs []keyedInput) ([]json.RawMessage, error) {
	return nil, fmt.Errorf("%s: the client declared no capability to answer it", inputs[0].req.Method)
}
