package mcp

import (
	"context"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// Relay carries downstream notifications to the MCP surface. The hub is
// built before the Server, so the hub is given relay.OnNotification and the
// Server attaches itself when it is made; notifications before that, or
// after the Server is closed, are dropped.
type Relay struct {
	target atomic.Pointer[Server]
}

// NewRelay returns a relay with no server attached.
func NewRelay() *Relay { return &Relay{} }

// OnNotification has the signature of hub.Options.OnNotification.
func (r *Relay) OnNotification(server string, n mcpgo.JSONRPCNotification) {
	if s := r.target.Load(); s != nil {
		s.handleNotification(server, n)
	}
}

func (r *Relay) attach(s *Server) { r.target.Store(s) }

func (r *Relay) detach(s *Server) { r.target.CompareAndSwap(s, nil) }

// handleNotification routes one downstream notification: progress to the
// call that asked for it under the client's own token, log messages to the
// clients calling that server (or, with none, to every client that chose a
// log level), resource updates to the clients subscribed to the resource.
// Nothing is broadcast that a client did not ask for.
func (s *Server) handleNotification(server string, n mcpgo.JSONRPCNotification) {
	switch n.Method {
	case string(mcpgo.MethodNotificationProgress):
		s.relayProgress(n.Params.AdditionalFields)
	case string(mcpgo.MethodNotificationMessage):
		s.relayLog(server, n.Params.AdditionalFields)
	case mcpgo.MethodNotificationResourceUpdated:
		s.relayResourceUpdated(n.Params.AdditionalFields)
	default:
		s.log.Debug("downstream notification not forwarded", "server", server, "method", n.Method)
	}
}

func (s *Server) relayProgress(params map[string]any) {
	route := s.calls.byProgressToken(params["progressToken"])
	if route == nil {
		return // the call is over, or the token is not one of ours
	}
	out := make(map[string]any, len(params))
	for k, v := range params {
		out[k] = v
	}
	out["progressToken"] = route.clientToken
	if err := route.notify(string(mcpgo.MethodNotificationProgress), out); err != nil {
		s.log.Debug("progress not delivered", "err", err)
	}
}

func (s *Server) relayLog(server string, params map[string]any) {
	level := logLevelOf(params)
	routes := s.calls.onServer(server)
	if len(routes) == 0 {
		s.levels.broadcast(s.notifySession, level, params)
		return
	}
	for _, route := range routes {
		if !route.wantsLog(level) {
			continue
		}
		if err := route.notify(string(mcpgo.MethodNotificationMessage), params); err != nil {
			s.log.Debug("log message not delivered", "err", err)
		}
	}
}

// logLevelOf reads a notifications/message level; an unknown one counts as
// info.
func logLevelOf(params map[string]any) mcpgo.LoggingLevel {
	if s, ok := params["level"].(string); ok {
		level := mcpgo.LoggingLevel(s)
		if level.ShouldSendTo(mcpgo.LoggingLevelDebug) {
			return level
		}
	}
	return mcpgo.LoggingLevelInfo
}

// logLevels remembers the log level each client session chose with
// logging/setLevel. Safe for concurrent use.
type logLevels struct {
	mu     sync.Mutex
	chosen map[string]mcpgo.LoggingLevel // by session id
}

func newLogLevels() *logLevels {
	return &logLevels{chosen: make(map[string]mcpgo.LoggingLevel)}
}

// register hooks the tracker into the server's setLevel and session
// lifecycle.
func (l *logLevels) register(hooks *mcpserver.Hooks) {
	hooks.AddAfterSetLevel(func(ctx context.Context, _ any, req *mcpgo.SetLevelRequest, _ *mcpgo.EmptyResult) {
		if session := mcpserver.ClientSessionFromContext(ctx); session != nil {
			l.set(session.SessionID(), req.Params.Level)
		}
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, session mcpserver.ClientSession) {
		l.forget(session.SessionID())
	})
}

func (l *logLevels) set(session string, level mcpgo.LoggingLevel) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.chosen[session] = level
}

func (l *logLevels) forget(session string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.chosen, session)
}

func (l *logLevels) get(session string) (mcpgo.LoggingLevel, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	level, ok := l.chosen[session]
	return level, ok
}

// wants reports whether the client of the request in ctx wants a log
// message of level. A 2026-07-28 request names its level in the request
// itself, and without one must get no log messages. An older client that
// chose a level with logging/setLevel gets that level and above; one that
// chose none gets what the downstream chose to send.
func (l *logLevels) wants(ctx context.Context, level mcpgo.LoggingLevel) bool {
	if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.LogLevel != "" && level.ShouldSendTo(info.LogLevel)
	}
	session := mcpserver.ClientSessionFromContext(ctx)
	if session == nil {
		return false
	}
	if chosen, ok := l.get(session.SessionID()); ok {
		return level.ShouldSendTo(chosen)
	}
	return true
}

// broadcast sends a log message that belongs to no call to every session
// that chose a level at or below the message's.
func (l *logLevels) broadcast(notify func(session, method string, params map[string]any) error, level mcpgo.LoggingLevel, params map[string]any) {
	l.mu.Lock()
	targets := make([]string, 0, len(l.chosen))
	for session, chosen := range l.chosen {
		if level.ShouldSendTo(chosen) {
			targets = append(targets, session)
		}
	}
	l.mu.Unlock()
	for _, session := range targets {
		_ = notify(session, string(mcpgo.MethodNotificationMessage), params)
	}
}
