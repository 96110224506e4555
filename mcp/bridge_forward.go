package mcp

import (
	"context"
	"encoding/json"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// modernRequest reports whether the request in ctx is of protocol
// 2026-07-28 or later, whose client takes no server-initiated requests.
func modernRequest(ctx context.Context) bool {
	info := mcpserver.RequestProtocolInfoFromContext(ctx)
	return info != nil && info.Modern
}

// forwardModern is forward for a 2026-07-28 client. The downstream call
// runs on past the client's request when the downstream asks for input:
// the client gets an InputRequiredResult, and its retry with requestState
// answers the waiting request and goes on waiting for the result. name is
// the catalog tool and args its arguments; req is the client's request as
// sent (for call_tool, the meta tool's own). A retry whose requestState
// names no waiting call, and a call the downstream refused for a client
// capability the client lacks, end with a *refusal: the client gets a
// JSON-RPC error, as from the server directly.
// A client that declared nothing it could be asked has its call run on
// its request alone (callUnasked).
func (s *Server) forwardModern(ctx context.Context, name string, args json.RawMessage, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	server := s.serverOf(name)
	if state := req.Params.RequestState; state != "" {
		ex, err := s.bridges.resume(state, name)
		if err != nil {
			return nil, &refusal{code: mcpgo.INVALID_PARAMS, message: err.Error()}
		}
		ex.answer(req.Params.InputResponses)
		return s.bridgeRound(ctx, ex, server, progressToken(req), nil)
	}
	info := mcpserver.RequestProtocolInfoFromContext(ctx)
	var declared *mcpgo.ClientCapabilities
	if info != nil {
		declared = info.ClientCapabilities
	}
	caps := modernCapabilities(declared)
	if caps == (hub.ClientCapabilities{}) {
		return s.callUnasked(ctx, name, args, server, progressToken(req))
	}
	callCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	ex := s.bridges.open(name, cancel)
	client := &bridgeClient{asker: ex, caps: caps,
		memory: rootsMemoryFrom(ctx), client: rootsClient(info)}
	callCtx = hub.WithClient(callCtx, client)
	start := func(hubToken string) {
		ex.hubToken = hubToken
		go func() {
			ex.finish(s.callCatalogModern(callCtx, name, args, callOptions(hubToken)))
		}()
	}
	return s.bridgeRound(ctx, ex, server, progressToken(req), start)
}

// bridgeRound serves one client request of an exchange: the downstream's
// progress and logs meanwhile go to this request, and it ends with the
// call's result, with the input the downstream now waits for, or, when the
// client cancels or goes away, by cancelling the call. start, on the first
// round, begins the downstream call once its progress is routed here.
func (s *Server) bridgeRound(ctx context.Context, ex *exchange, server string, token mcpgo.ProgressToken, start func(hubToken string)) (*mcpgo.CallToolResult, error) {
	route := s.newRoute(ctx, server, token)
	if token != nil && ex.hubToken != "" {
		route.hubToken = ex.hubToken // the token the downstream already has
	}
	remove := s.calls.add(route)
	if start != nil {
		start(route.hubToken)
	}
	out, err := ex.await(ctx)
	route.awaitDelivered(ctx)
	remove()
	switch {
	case err != nil:
		s.bridges.close(ex)
		return errorResult(ex.tool, err), nil
	case out.refused != nil:
		s.bridges.close(ex)
		return nil, out.refused
	case out.res != nil:
		s.bridges.close(ex)
		return out.res, nil
	}
	state := s.bridges.park(ex)
	s.log.Debug("a downstream asks a 2026-07-28 client for input", "tool", ex.tool, "requests", inputIDs(out.input))
	return &mcpgo.CallToolResult{
		Result:               mcpgo.Result{ResultType: mcpgo.ResultTypeInputRequired},
		MultiRoundTripResult: mcpgo.MultiRoundTripResult{InputRequests: out.input, RequestState: state},
	}, nil
}

// serverOf names the server a catalog tool belongs to, "" when unknown.
func (s *Server) serverOf(name string) string {
	if t, ok := s.cat.Snapshot().Lookup(name); ok {
		return t.Server
	}
	return ""
}
