package mcp

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// forwardHandler is the handler of a directly exposed catalog tool.
func (s *Server) forwardHandler(name string) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if modernRequest(ctx) {
			return s.forwardModern(ctx, name, rawArguments(req), req)
		}
		return s.forward(ctx, name, rawArguments(req), progressToken(req)), nil
	}
}

// forward calls a catalog tool through the hub and returns its result as
// the downstream sent it, or an isError result saying what went wrong.
// Progress and log notifications the downstream sends meanwhile reach this
// call's client only, and so do its sampling, elicitation and roots requests. Cancelling ctx (the client's notifications/cancelled,
// or a closed HTTP stream) cancels the downstream call.
func (s *Server) forward(ctx context.Context, name string, args json.RawMessage, clientToken mcpgo.ProgressToken) *mcpgo.CallToolResult {
	ctx = s.withClient(ctx)
	route := s.newRoute(ctx, s.serverOf(name), clientToken)
	remove := s.calls.add(route)
	defer remove()

	out := s.callCatalog(ctx, name, args, callOptions(route.hubToken))
	route.awaitDelivered(ctx)
	return out
}

// callCatalog makes one catalog call and turns its outcome into the result
// the client gets.
func (s *Server) callCatalog(ctx context.Context, name string, args json.RawMessage, opts hub.CallOptions) *mcpgo.CallToolResult {
	res, err := s.cat.Call(ctx, name, args, opts)
	return s.callOutcome(name, res, err)
}

// callOutcome is the result the client gets of a catalog call that
// returned res or err.
func (s *Server) callOutcome(name string, res *hub.CallResult, err error) *mcpgo.CallToolResult {
	if err != nil {
		s.log.Debug("forwarded call failed", "tool", name, "err", err)
		return errorResult(name, err)
	}
	if size := len(res.Raw); int64(size) > s.opts.MaxResultBytes {
		return errorResult(name, &ResultTooLargeError{Tool: name, Size: size, Limit: s.opts.MaxResultBytes})
	}
	out, err := passThrough(res.Raw)
	if err != nil {
		return errorResult(name, err)
	}
	return out
}

// newRoute describes where the downstream notifications of one call go.
func (s *Server) newRoute(ctx context.Context, server string, clientToken mcpgo.ProgressToken) *callRoute {
	route := &callRoute{
		server:      server,
		clientToken: clientToken,
		session:     mcpserver.ClientSessionFromContext(ctx),
		delivery:    deliveryFrom(ctx),
	}
	route.notify = func(method string, params map[string]any) error {
		err := s.mcp.SendNotificationToClient(ctx, method, params)
		if err == nil && route.delivery != nil {
			route.lastQueued.Store(route.delivery.queuedOne())
		}
		return err
	}
	if stream := callStreamFrom(ctx); stream != nil {
		route.notify = stream.notify // written before the result, on the call's own response
	}
	route.wantsLog = func(level mcpgo.LoggingLevel) bool { return s.levels.wants(ctx, level) }
	return route
}

// callOptions are the options of a call whose progress goes downstream
// under hubToken ("" for none). Only the remapped token goes downstream:
// the client's other _meta entries (protocol version, client info, its log
// level) describe the client's connection, not the hub's.
func callOptions(hubToken string) hub.CallOptions {
	var opts hub.CallOptions
	if hubToken != "" {
		opts.Meta = map[string]any{"progressToken": hubToken}
	}
	return opts
}

// rawArguments are the call's arguments as the client sent them.
func rawArguments(req mcpgo.CallToolRequest) json.RawMessage {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if req.Params.Arguments == nil {
		return nil
	}
	raw, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil
	}
	return raw
}

// progressToken is the token the client asked progress under, or nil.
func progressToken(req mcpgo.CallToolRequest) mcpgo.ProgressToken {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}
