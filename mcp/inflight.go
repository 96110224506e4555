package mcp

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// progressTokenPrefix starts every progress token the hub sends downstream.
const progressTokenPrefix = "toolhub-"

// callRoute is one forwarded call in flight: where its downstream's progress
// and log notifications go. Progress tokens and request ids are per
// connection, and one downstream connection serves every client, so each
// call that asks for progress gets a hub-unique token, mapped back here to
// the client's own.
type callRoute struct {
	server      string              // the downstream server the call went to
	clientToken mcpgo.ProgressToken // nil when the client asked for no progress
	hubToken    string              // the token sent downstream, "" without one
	session     mcpserver.ClientSession
	// notify sends a notification to the client that made the call, on that
	// call's own stream. It is valid only while the call is in flight.
	notify func(method string, params map[string]any) error
	// wantsLog reports whether the client wants a downstream log message of
	// this level during the call.
	wantsLog func(level mcpgo.LoggingLevel) bool
	// delivery is the client stream the call's notifications travel on
	// (nil when it needs no waiting); lastQueued is the position of the last
	// notification notify queued on it.
	delivery   deliveryTracker
	lastQueued atomic.Int64
}

// awaitDelivered waits until the notifications sent for the call have been
// written to the client, so that its result does not overtake them.
func (r *callRoute) awaitDelivered(ctx context.Context) {
	if r.delivery != nil {
		if n := r.lastQueued.Load(); n > 0 {
			r.delivery.await(ctx, n)
		}
	}
}

// inflight indexes the calls in flight by hub progress token and by server.
// Safe for concurrent use.
type inflight struct {
	mu       sync.Mutex
	next     uint64
	byToken  map[string]*callRoute
	byServer map[string]map[*callRoute]struct{}
}

func newInflight() *inflight {
	return &inflight{
		byToken:  make(map[string]*callRoute),
		byServer: make(map[string]map[*callRoute]struct{}),
	}
}

// add registers r, giving it a hub token when the client asked for
// progress, and returns the function that removes it.
func (f *inflight) add(r *callRoute) (remove func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.clientToken != nil {
		if r.hubToken == "" { // else a later round of a bridged call (bridge.go)
			f.next++
			r.hubToken = progressTokenPrefix + strconv.FormatUint(f.next, 10)
		}
		f.byToken[r.hubToken] = r
	}
	calls := f.byServer[r.server]
	if calls == nil {
		calls = make(map[*callRoute]struct{})
		f.byServer[r.server] = calls
	}
	calls[r] = struct{}{}
	return func() { f.remove(r) }
}

func (f *inflight) remove(r *callRoute) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r.hubToken != "" && f.byToken[r.hubToken] == r {
		delete(f.byToken, r.hubToken)
	}
	if calls := f.byServer[r.server]; calls != nil {
		delete(calls, r)
		if len(calls) == 0 {
			delete(f.byServer, r.server)
		}
	}
}

// byProgressToken finds the call a downstream progress token belongs to.
func (f *inflight) byProgressToken(token any) *callRoute {
	key, ok := token.(string)
	if !ok {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.byToken[key]
}

// onServer lists the calls in flight on server, one per client session.
func (f *inflight) onServer(server string) []*callRoute {
	f.mu.Lock()
	defer f.mu.Unlock()
	calls := f.byServer[server]
	out := make([]*callRoute, 0, len(calls))
	seen := make(map[mcpserver.ClientSession]bool, len(calls))
	for r := range calls {
		if r.session != nil {
			if seen[r.session] {
				continue
			}
			seen[r.session] = true
		}
		out = append(out, r)
	}
	return out
}
