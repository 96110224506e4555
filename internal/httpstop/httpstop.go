package httpstop

import (
	"net"
	"net/http"
	"sync"
)

// Tracker follows the connections a server accepted that have not begun a
// request (http.StateNew).
//
// http.Server.Shutdown closes idle connections at once but leaves a new one
// open for five seconds, in case its first request is on the way. Clients
// open such connections ahead of need: Go's transport keeps a connection it
// dialed for a request that an idle connection served first, and browsers
// open spare ones. So a stop with such a client attached waited for a
// connection that carried nothing, and a Shutdown with a shorter deadline
// failed. Once Shutdown has closed the listeners, the Tracker closes those
// connections; requests already being read or answered are left to finish.
type Tracker struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	// stopping is set once Shutdown has begun. A connection the server
	// accepted just before its listener closed can reach StateNew after
	// closeAll has run; it is closed then, or it would hold Shutdown for
	// five seconds.
	stopping bool
}

// Track makes srv's Shutdown close its new connections. It sets srv's
// ConnState hook, calling the one srv had, and registers with
// RegisterOnShutdown, so call it before srv serves.
func Track(srv *http.Server) *Tracker {
	t := &Tracker{conns: make(map[net.Conn]struct{})}
	prev := srv.ConnState
	srv.ConnState = func(c net.Conn, state http.ConnState) {
		t.track(c, state)
		if prev != nil {
			prev(c, state)
		}
	}
	srv.RegisterOnShutdown(t.closeAll) // Shutdown runs it once the listeners are closed
	return t
}

func (t *Tracker) track(c net.Conn, state http.ConnState) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if state == http.StateNew {
		if t.stopping {
			_ = c.Close()
			return
		}
		t.conns[c] = struct{}{}
		return
	}
	delete(t.conns, c)
}

// closeAll closes every connection still waiting for its first request,
// and makes track close any that begins waiting after.
func (t *Tracker) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopping = true
	for c := range t.conns {
		_ = c.Close()
		delete(t.conns, c)
	}
}

// Waiting is how many connections have not yet begun a request.
func (t *Tracker) Waiting() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.conns)
}
