package hub

import (
	"context"
	"fmt"
	"sync"
)

// activeCall is one request the hub has in flight on a downstream server,
// remembered so that a request the server sends back meanwhile (sampling,
// elicitation, roots) can be answered by the client that made it.
type activeCall struct {
	client ClientRequester // nil when no MCP client made the call
	done   <-chan struct{} // closed when the call ends
}

// activeCalls is a downstream's calls in flight. Safe for concurrent use.
type activeCalls struct {
	mu    sync.Mutex
	calls map[*activeCall]struct{}
}

// enter records a call made under ctx until leave is called.
func (a *activeCalls) enter(ctx context.Context) (leave func()) {
	call := &activeCall{client: ClientFrom(ctx), done: ctx.Done()}
	a.mu.Lock()
	if a.calls == nil {
		a.calls = make(map[*activeCall]struct{})
	}
	a.calls[call] = struct{}{}
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		delete(a.calls, call)
		a.mu.Unlock()
	}
}

// attribute finds the client a server's request belongs to. The request's
// own context names it when the transport delivered the request on the
// call's stream (Streamable HTTP, in-process). Otherwise (stdio, or an HTTP
// server's standalone stream) the calls in flight decide: when they all come
// from one client session, that client answers; with none, or with calls
// from several clients, the request cannot be attributed and is refused.
// done, when not nil, closes when the call the request was attributed to ends.
func (a *activeCalls) attribute(ctx context.Context, server string) (c ClientRequester, done <-chan struct{}, err error) {
	if c := ClientFrom(ctx); c != nil {
		return c, nil, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var first *activeCall
	for call := range a.calls {
		switch {
		case first == nil:
			first = call
		case !sameClient(first.client, call.client):
			return nil, nil, fmt.Errorf("server %s has calls from %d clients in progress; "+
				"its request cannot be attributed to one of them", server, a.distinctClientsLocked())
		}
	}
	if first == nil {
		return nil, nil, fmt.Errorf("server %s sent a request outside any call toolhub made; "+
			"there is no client to forward it to", server)
	}
	if first.client == nil {
		return nil, nil, fmt.Errorf("server %s: %w", server, ErrNoClient)
	}
	return first.client, first.done, nil
}

// sameClient reports whether two calls come from the same client session.
// A client without a session is the same as no other.
func sameClient(a, b ClientRequester) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if sessionless(a) || sessionless(b) {
		return false
	}
	return a.Session() != "" && a.Session() == b.Session()
}

func (a *activeCalls) distinctClientsLocked() int {
	sessions := map[string]bool{}
	anonymous := 0
	for call := range a.calls {
		switch {
		case call.client == nil, call.client.Session() == "", sessionless(call.client):
			anonymous++
		default:
			sessions[call.client.Session()] = true
		}
	}
	return len(sessions) + anonymous
}

// count is how many calls are in flight.
func (a *activeCalls) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.calls)
}

// byClient sorts the calls in flight by the client session key: one call
// of key's (nil when none), and how many calls other clients and no client
// made. Calls of clients without a session are each another client's,
// though they share key: a second one counts among the others.
func (a *activeCalls) byClient(key string) (mine *activeCall, others, anonymous int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for c := range a.calls {
		switch {
		case c.client == nil:
			anonymous++
		case sessionKey(c.client) != key:
			others++
		case mine == nil:
			mine = c
		case !sameClient(mine.client, c.client):
			others++
		}
	}
	return mine, others, anonymous
}
