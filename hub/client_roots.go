package hub

import (
	"context"
	"fmt"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// ClientEvents is what the MCP surface tells the hub of its clients between
// their calls. *Hub implements it.
type ClientEvents interface {
	// RootsChanged: the client sent notifications/roots/list_changed. c can
	// be asked outside any call for as long as its session lasts. It
	// returns once the change is relayed to the client's own sessions.
	RootsChanged(ctx context.Context, c ClientRequester)
	// ClientGone: the client's session ended; the downstream sessions
	// kept for it are stopped.
	ClientGone(session string)
}

// BetweenCalls is implemented by a ClientRequester that can also be asked
// outside the request it came with, for as long as the client's session
// lasts. A downstream session of a client's own uses it for the requests
// its server sends between calls (roots/list after the client's
// roots/list_changed, most often).
type BetweenCalls interface {
	BetweenCalls() ClientRequester
}

// RootsIdentified is implemented by a client that has no session of its
// own and is known by its roots instead (a client of protocol 2026-07-28):
// its Session is "" until LearnRoots has asked it for them, then a name
// its roots decide. Before a request of such a client reaches a server
// that uses roots, it is asked (sessionFor), and so is it before the shared
// session is given its roots (rootsRequester): each session is held for
// one set of roots. LearnRoots does nothing once the client has its name.
type RootsIdentified interface {
	LearnRoots(ctx context.Context) error
}

// Sessionless is implemented by a client that has no session (one of
// protocol 2026-07-28). Its Session names the downstream session it uses,
// which other such clients with the same roots share; so it is the same
// client as no other, and a server request that nothing ties to one of
// their calls is not given to any of them.
type Sessionless interface {
	Sessionless() bool
}

// sessionless reports whether c is a client without a session.
func sessionless(c ClientRequester) bool {
	s, ok := c.(Sessionless)
	return ok && s.Sessionless()
}

var _ ClientEvents = (*Hub)(nil)

// RootsChanged relays a client's roots/list_changed to the downstream
// sessions that were given its roots.
func (h *Hub) RootsChanged(ctx context.Context, c ClientRequester) {
	key := sessionKey(c)
	if key == "" {
		return
	}
	for _, ds := range h.runningDownstreams() {
		ds.rootsChanged(ctx, key, c)
	}
}

// ClientGone stops the downstream sessions kept for the client's session.
func (h *Hub) ClientGone(session string) {
	if session == "" {
		return
	}
	for _, ds := range h.runningDownstreams() {
		ds.clientGone(session)
	}
}

// runningDownstreams are the supervisors of the servers that run now.
func (h *Hub) runningDownstreams() []*downstream {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]*downstream, 0, len(h.servers))
	for _, m := range h.servers {
		if m.ds != nil {
			out = append(out, m.ds)
		}
	}
	return out
}

// sessionKey is the identity of the client session behind c: its session
// id, which the MCP surface keeps unique while the session lasts (and
// announces the end of with ClientGone). "" means no identity.
func sessionKey(c ClientRequester) string {
	if c == nil {
		return ""
	}
	return c.Session()
}

// sessionOwner is the one client a downstream session answers to.
type sessionOwner struct {
	key string

	mu      sync.Mutex
	between ClientRequester // reachable between calls; nil when the client offers none
	gone    bool            // the client's session ended
}

// remember keeps c's between-calls form, when it has one.
func (o *sessionOwner) remember(c ClientRequester) {
	b, ok := c.(BetweenCalls)
	if !ok {
		return
	}
	o.mu.Lock()
	o.between = b.BetweenCalls()
	o.mu.Unlock()
}

// is reports whether key names the owner and its session lasts.
func (o *sessionOwner) is(key string) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return !o.gone && o.key == key
}

func (o *sessionOwner) leave() {
	o.mu.Lock()
	o.gone, o.between = true, nil
	o.mu.Unlock()
}

// requester is the client a request of the owner's session goes to: the
// one named by the request's context, else the owner's call in flight,
// else, with no call in flight at all, the owner as it is reached between
// calls. A call of another client, or of none, is never given the owner's
// answers.
//
// A roots/list (roots belong to the client, not to a call) goes to the
// owner as reached between calls whenever it can be: a call that happens to
// be in flight may end before the answer comes back, and the server would
// keep the roots it had.
func (o *sessionOwner) requester(ctx context.Context, calls *activeCalls, server, method string) (ClientRequester, <-chan struct{}, error) {
	if c := ClientFrom(ctx); c != nil {
		if sessionKey(c) != o.key {
			return nil, nil, fmt.Errorf("server %s: a request for another client reached a session of one client's own", server)
		}
		return c, nil, nil
	}
	mine, others, anonymous := calls.byClient(o.key)
	o.mu.Lock()
	between, gone := o.between, o.gone
	o.mu.Unlock()
	switch {
	case others > 0:
		return nil, nil, fmt.Errorf("server %s: calls of other clients are in flight on a session "+
			"that answers to one client only; its request is refused", server)
	case anonymous > 0 && mine == nil:
		return nil, nil, fmt.Errorf("server %s: %w", server, ErrNoClient)
	case mine != nil && (method != string(mcpgo.MethodListRoots) || between == nil || gone):
		return mine.client, mine.done, nil
	}
	if gone || between == nil {
		return nil, nil, fmt.Errorf("server %s sent a request between calls and its client cannot be "+
			"reached outside a call: %w", server, ErrNoClient)
	}
	return between, nil, nil
}

// rootsUse is what a server's shared session did with roots: whether it
// asked for them at all, and the one client whose roots it was given. Only
// a server's very first roots/list, made during the calls of one client,
// is answered on the shared session; that client then owns the shared
// session, and every other client gets a session of its own.
type rootsUse struct {
	mu    sync.Mutex
	asked bool
	owner *sessionOwner // set once; nil while no client's roots were given
}

func (r *rootsUse) usesRoots() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asked
}

// claimed reports whether some client (perhaps one gone since) owns the
// shared session, and whether that is the client of key.
func (r *rootsUse) claimed(key string) (claimed, mine bool) {
	r.mu.Lock()
	owner := r.owner
	r.mu.Unlock()
	return owner != nil, owner.is(key)
}

func (r *rootsUse) currentOwner() *sessionOwner {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.owner
}

// rootsRequester decides who answers a roots/list of the shared session.
func (d *downstream) rootsRequester(ctx context.Context) (ClientRequester, <-chan struct{}, error) {
	d.roots.mu.Lock()
	first := !d.roots.asked
	d.roots.asked = true
	owner := d.roots.owner
	d.roots.mu.Unlock()
	if owner != nil {
		return owner.requester(ctx, &d.calls, d.spec.Name, string(mcpgo.MethodListRoots))
	}
	if !first {
		return nil, nil, fmt.Errorf("server %s: each client's roots go to a session of its own, "+
			"not to the session clients share: %w", d.spec.Name, ErrNoClient)
	}
	c, done, err := d.calls.attribute(ctx, d.spec.Name)
	if err != nil {
		return nil, nil, err
	}
	if l, ok := c.(RootsIdentified); ok {
		if err := l.LearnRoots(ctx); err != nil {
			return nil, nil, err
		}
	}
	if key := sessionKey(c); key != "" {
		claim := &sessionOwner{key: key}
		claim.remember(c)
		d.roots.mu.Lock()
		d.roots.owner = claim
		d.roots.mu.Unlock()
	}
	return c, done, nil
}

// rootsChanged relays roots/list_changed to the sessions that were given
// the roots of the client of key.
func (d *downstream) rootsChanged(ctx context.Context, key string, c ClientRequester) {
	if owner := d.roots.currentOwner(); owner.is(key) {
		owner.remember(c)
		d.notifyRootsChanged(ctx)
	}
	if own := d.clients.lookup(key); own != nil {
		own.owner.remember(c)
		own.notifyRootsChanged(ctx)
	}
}

// notifyRootsChanged sends notifications/roots/list_changed on the
// current connection, if there is one.
func (d *downstream) notifyRootsChanged(ctx context.Context) {
	conn, _ := d.currentConn()
	if conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelNotifyTimeout)
	defer cancel()
	n := mcpgo.JSONRPCNotification{
		JSONRPC:      mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: mcpgo.MethodNotificationRootsListChanged},
	}
	if err := conn.raw.SendNotification(ctx, n); err != nil {
		d.log.Warn("relaying the client's roots change failed", "err", err)
	}
}

// clientGone forgets the client of key: the shared session no longer
// answers to it, and its own session is stopped.
func (d *downstream) clientGone(key string) {
	if owner := d.roots.currentOwner(); owner.is(key) {
		owner.leave()
	}
	d.clients.remove(key)
}
