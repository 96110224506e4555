package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// shortHTTPCalls serves the commonest request over HTTP without mcp-go: a
// tools/call of a catalog tool, from a client of protocol 2025-11-25 or
// older on the session it initialized, or any round of one from a client
// of 2026-07-28 (takeModernHTTP). mcp-go would decode the request
// two or three times, start a goroutine and a span for it, and encode the
// result again; here the request is decoded once, forwarded as mcp-go
// would forward it, and answered with the downstream's result. The call's
// notifications and elicitations travel on its own response, as with
// mcp-go (callStream); its sampling and roots requests go through mcp-go's
// session, as they always do.
//
// The answers the client posts to those elicitations, and its
// notifications/cancelled for such a call, are taken here too. Everything
// else, and any request that is not plainly one of these (a browser's, a
// task, a malformed one), goes on to next unchanged.
func (s *Server) shortHTTPCalls(ids mcpserver.SessionIdManager, idle time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readBody(r)
		if r.Method == http.MethodPost && body != nil && mcpgo.IsModernProtocol(r.Header.Get(mcpgo.HeaderProtocolVersion)) {
			if !s.takeModernHTTP(w, r) {
				next.ServeHTTP(w, r)
			}
			return
		}
		live := s.sessions.get(r.Header.Get(mcpserver.HeaderKeySessionID))
		if live == nil {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodPost || body == nil || !plainHTTPCall(r) {
			s.sessions.passedOn(live)
			next.ServeHTTP(w, r)
			return
		}
		env, ok := requestEnvelope(r)
		if !ok || !s.takeShortHTTP(w, r, live, env, ids, idle) {
			s.sessions.passedOn(live)
			next.ServeHTTP(w, r)
		}
	})
}

// takeShortHTTP serves env when it is an answer to a short call's request,
// a cancellation of a short call, or a tools/call the short path takes, and
// reports whether it did.
func (s *Server) takeShortHTTP(w http.ResponseWriter, r *http.Request, live *liveSession, env envelope,
	ids mcpserver.SessionIdManager, idle time.Duration,
) bool {
	session := live.session.SessionID()
	switch {
	case env.Method == "" && env.hasID():
		if !s.asks.answer(session, env) {
			return false
		}
	case env.Method == string(mcpgo.MethodNotificationCancelled) && !env.hasID():
		if !s.httpCalls.cancel(session, env.Params) {
			return false
		}
	case env.Method == string(mcpgo.MethodToolsCall) && env.hasID() && s.sessions.fresh(live, idle) &&
		len(live.session.NotificationChannel()) == 0:
		// Notifications queued for the session (a list change, say) go out
		// on its next request through mcp-go, as they always have.
		call, info, ok := s.shortCallOf(env)
		if !ok || info != nil {
			return false
		}
		if terminated, err := ids.Validate(session); err != nil || terminated {
			return false // mcp-go answers with the reason
		}
		s.serveHTTPCall(s.mcp.WithContext(r.Context(), live.session), w, r.Header.Values("Accept"), session, env.ID, call.tool,
			func(ctx context.Context) []byte {
				return resultLine(env.ID, s.forward(ctx, call.tool, call.args, call.token))
			})
		return true
	default:
		return false
	}
	w.WriteHeader(http.StatusAccepted)
	return true
}

// takeModernHTTP serves a 2026-07-28 tools/call that the short path takes
// (shortCallOf, its headers matching its body) and reports whether it did.
// Such a request has no session: its client is known by what it declares.
func (s *Server) takeModernHTTP(w http.ResponseWriter, r *http.Request) bool {
	env, ok := requestEnvelope(r)
	if !ok || !plainHTTPRequest(r) {
		return false
	}
	if env.Method == string(mcpgo.MethodNotificationCancelled) && !env.hasID() {
		// Without a session, a cancellation names its request by id alone,
		// as mcp-go keys it.
		if !s.httpCalls.cancel("", env.Params) {
			return false
		}
		w.WriteHeader(http.StatusAccepted)
		return true
	}
	call, info, ok := s.shortCallOf(env)
	if !ok || info == nil || !env.hasID() || !s.headersMatch(r, env, call.Name) {
		return false
	}
	s.serveHTTPCall(r.Context(), w, r.Header.Values("Accept"), "", env.ID, call.tool,
		func(ctx context.Context) []byte { return s.forwardModernCall(ctx, env.ID, call, info) })
	return true
}

// plainHTTPCall reports whether a request is one the short path may serve
// as mcp-go would: an older protocol version and plainHTTPRequest.
func plainHTTPCall(r *http.Request) bool {
	if v := r.Header.Get(mcpgo.HeaderProtocolVersion); v != "" &&
		(mcpgo.IsModernProtocol(v) || !mcpgo.IsValidProtocolVersion(v)) {
		return false
	}
	return plainHTTPRequest(r)
}

// plainHTTPRequest reports whether a request is one mcp-go would serve
// without anything the short path leaves out: JSON in, a client that reads
// JSON back, no browser Origin (mcp-go adds CORS headers), and a Host
// header mcp-go's DNS rebinding check lets through.
func plainHTTPRequest(r *http.Request) bool {
	media, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || media != "application/json" || r.Header.Get("Origin") != "" {
		return false
	}
	if !acceptsJSON(r.Header.Values("Accept")) {
		return false
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return !ok || !loopbackHost(local.String()) || loopbackHost(r.Host)
}

// loopbackHost reports whether host (with or without a port) names this
// machine's loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serveHTTPCall answers request id of session ("" for none) on w with the
// response line forward makes, the call's notifications and elicitations
// on the same response (callStream) when accept allows, cancellable by the client's
// notifications/cancelled; a panic is answered as an internal error.
func (s *Server) serveHTTPCall(ctx context.Context, w http.ResponseWriter, accept []string, session string,
	id json.RawMessage, tool string, forward func(context.Context) []byte,
) {
	ctx, done := s.httpCalls.track(ctx, session, id)
	defer done()
	stream := newCallStream(w, session, s.asks, accept)
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("HTTP tool call panicked", "tool", tool, "panic", v)
			_ = stream.finish(rpcError(id, mcpgo.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", v)))
		}
	}()
	response := forward(withCallStream(ctx, stream))
	if errors.Is(context.Cause(ctx), errCancelledByClient) {
		stream.abandon(id) // a cancelled request gets no response
		return
	}
	if err := stream.finish(response); err != nil {
		s.log.Debug("tool result not delivered", "tool", tool, "err", err)
	}
}

// httpCalls are the short HTTP calls in flight, by session and request id,
// for the client's notifications/cancelled. Without a session (2026-07-28)
// two clients may use the same id at once; the later call is the one a
// cancellation names until it ends, as in mcp-go.
type httpCalls struct {
	byKey sync.Map // session + "\x00" + raw id → *trackedCall
}

type trackedCall struct{ cancel context.CancelCauseFunc }

func (c *httpCalls) track(ctx context.Context, session string, id json.RawMessage) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	key := askKey(session, string(id))
	call := &trackedCall{cancel: cancel}
	c.byKey.Store(key, call)
	return ctx, func() {
		c.byKey.CompareAndDelete(key, call)
		cancel(nil)
	}
}

// cancel cancels the call a notifications/cancelled of session names, and
// reports whether it was one of these.
func (c *httpCalls) cancel(session string, params json.RawMessage) bool {
	id, ok := cancelledRequest(params)
	if !ok {
		return false
	}
	v, ok := c.byKey.Load(askKey(session, id))
	if ok {
		v.(*trackedCall).cancel(errCancelledByClient)
	}
	return ok
}
