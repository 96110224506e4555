package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// Subscriber forwards resource subscriptions to the owning downstream,
// counting subscribers. *hub.Hub satisfies it; a Catalog without it offers
// no subscriptions.
type Subscriber interface {
	SubscribeResource(ctx context.Context, uri string) error
	UnsubscribeResource(ctx context.Context, uri string) error
}

// clientSubscriptions remembers which client sessions subscribed to which
// resource URIs, so that notifications/resources/updated reaches only them.
// Safe for concurrent use.
type clientSubscriptions struct {
	mu        sync.Mutex
	bySession map[string]map[string]bool // session id -> uris
}

// add records a subscription and reports whether it is new.
func (c *clientSubscriptions) add(session, uri string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bySession == nil {
		c.bySession = map[string]map[string]bool{}
	}
	uris := c.bySession[session]
	if uris == nil {
		uris = map[string]bool{}
		c.bySession[session] = uris
	}
	if uris[uri] {
		return false
	}
	uris[uri] = true
	return true
}

// remove drops a subscription and reports whether there was one.
func (c *clientSubscriptions) remove(session, uri string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.bySession[session][uri] {
		return false
	}
	delete(c.bySession[session], uri)
	return true
}

// forget drops a session and returns the URIs it watched.
func (c *clientSubscriptions) forget(session string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	uris := make([]string, 0, len(c.bySession[session]))
	for uri := range c.bySession[session] {
		uris = append(uris, uri)
	}
	delete(c.bySession, session)
	return uris
}

// sessionsFor lists the sessions watching uri.
func (c *clientSubscriptions) sessionsFor(uri string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for session, uris := range c.bySession {
		if uris[uri] {
			out = append(out, session)
		}
	}
	return out
}

// serveSubscriptions forwards the clients' resources/subscribe and
// resources/unsubscribe to sub. mcp-go acknowledges both itself and offers no
// handler for them, so they are caught as they arrive, where a failed
// subscribe can still be refused with the downstream's reason.
func (s *Server) serveSubscriptions(hooks *mcpserver.Hooks, sub Subscriber) {
	hooks.AddOnRequestInitialization(func(ctx context.Context, _ any, message any) error {
		raw, ok := message.(json.RawMessage)
		if !ok || !bytes.Contains(raw, []byte("subscribe")) {
			return nil // the common case, decided without decoding
		}
		return s.handleSubscription(ctx, sub, raw)
	})
	hooks.AddBeforeSubscriptionsListen(func(ctx context.Context, id any, req *mcpgo.SubscriptionsListenRequest) {
		s.startListen(ctx, sub, id, req)
	})
	hooks.AddOnUnregisterSession(func(ctx context.Context, session mcpserver.ClientSession) {
		for _, uri := range s.subs.forget(session.SessionID()) {
			if err := sub.UnsubscribeResource(context.WithoutCancel(ctx), uri); err != nil {
				s.log.Debug("unsubscribing a closed session", "uri", uri, "err", err)
			}
		}
	})
}

func (s *Server) handleSubscription(ctx context.Context, sub Subscriber, raw json.RawMessage) error {
	var req struct {
		Method string `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	if err := json.Unmarshal(raw, &req); err != nil || req.Params.URI == "" {
		return nil // mcp-go answers malformed requests itself
	}
	session := sessionID(ctx)
	switch mcpgo.MCPMethod(req.Method) {
	case mcpgo.MethodResourcesSubscribe:
		if !s.subs.add(session, req.Params.URI) {
			return nil
		}
		if err := sub.SubscribeResource(ctx, req.Params.URI); err != nil {
			s.subs.remove(session, req.Params.URI)
			return err
		}
	case mcpgo.MethodResourcesUnsubscribe:
		if !s.subs.remove(session, req.Params.URI) {
			return nil
		}
		if err := sub.UnsubscribeResource(ctx, req.Params.URI); err != nil {
			s.log.Warn("unsubscribe not forwarded", "uri", req.Params.URI, "err", err)
		}
	}
	return nil
}

func sessionID(ctx context.Context) string {
	if session := mcpserver.ClientSessionFromContext(ctx); session != nil {
		return session.SessionID()
	}
	return ""
}

// relayResourceUpdated sends notifications/resources/updated to the
// sessions subscribed to its URI, and to the listen streams that asked for
// it.
func (s *Server) relayResourceUpdated(params map[string]any) {
	uri, _ := params["uri"].(string)
	s.relayToListens(uri, params)
	for _, session := range s.subs.sessionsFor(uri) {
		err := s.notifySession(session, string(mcpgo.MethodNotificationResourceUpdated), params)
		if err != nil {
			s.log.Debug("resource update not delivered", "uri", uri, "err", err)
		}
	}
}
