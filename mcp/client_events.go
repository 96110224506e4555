package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// clientEventOptions tell Options.Clients what a client does between its
// calls: each roots/list_changed it sends, and the end of its session.
// Every roots/list_changed also forgets the roots remembered of 2026-07-28
// clients (forgetRoots), with Options.Clients or without.
func (s *Server) clientEventOptions(hooks *mcpserver.Hooks) []mcpserver.ServerOption {
	events := s.opts.Clients
	if events != nil {
		hooks.AddOnUnregisterSession(func(_ context.Context, session mcpserver.ClientSession) {
			events.ClientGone(session.SessionID())
		})
	}
	return []mcpserver.ServerOption{func(srv *mcpserver.MCPServer) {
		srv.AddNotificationHandler(mcpgo.MethodNotificationRootsListChanged,
			func(ctx context.Context, _ mcpgo.JSONRPCNotification) {
				s.forgetRoots()
				if events == nil {
					return
				}
				session := mcpserver.ClientSessionFromContext(ctx)
				if session == nil {
					return
				}
				c := &sessionClient{srv: srv, session: session, caps: clientCapabilities(ctx, session),
					within: sessionOnly(srv, session)}
				events.RootsChanged(ctx, c)
			})
	}}
}

var _ hub.BetweenCalls = (*sessionClient)(nil)

// BetweenCalls is the client as it is asked outside the request it came
// with: on its session alone, for as long as that lasts.
func (c *sessionClient) BetweenCalls() hub.ClientRequester {
	between := *c
	between.within = sessionOnly(c.srv, c.session)
	between.relatedTask = "" // asked outside the call, for no task
	between.stream = nil     // nor on its response
	return &between
}

// sessionOnly derives the context of a request to the client from the
// caller's alone, naming the client's session.
func sessionOnly(srv *mcpserver.MCPServer, session mcpserver.ClientSession) func(context.Context) (context.Context, context.CancelFunc) {
	return func(ctx context.Context) (context.Context, context.CancelFunc) {
		return context.WithCancel(srv.WithContext(ctx, session))
	}
}
