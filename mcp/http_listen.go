package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// listenQueue is how many notifications a session's event stream may have
// waiting to be written; past it, they go through mcp-go's queue instead.
const listenQueue = 64

// listenStreams are the GET event streams of 2025-11-25 (and older) HTTP
// sessions, by session id, so that what toolhub sends a session outside
// any of its calls (a resource update, a log message of no call) goes out
// on that stream. What a stream could not write before it ended goes to
// fallback (mcp-go's queue of the session).
//
// mcp-go keeps one queue of notifications per session, read by its GET
// stream and by the stream of every POST in flight alike. A POST's reader
// that takes a notification just as the POST's response is written drops
// it: with a tool call that changes a subscribed resource, 0.2 to 5% of
// the updates were lost (1,000 calls, nine runs). Written here, they are not
// in that queue; without a GET stream they still go through it.
type listenStreams struct {
	fallback func(id string, n listenNote)

	mu      sync.Mutex
	streams map[string]*listenStream
}

// listenNote is a notification for a session's stream.
type listenNote struct {
	method string
	params map[string]any
}

func newListenStreams(fallback func(id string, n listenNote)) *listenStreams {
	return &listenStreams{fallback: fallback, streams: make(map[string]*listenStream)}
}

// keep follows the GET streams of sessions that next (mcp-go's transport)
// serves, and ends a session's stream when a DELETE ends the session
// (mcp-go would leave it open until the client goes).
func (l *listenStreams) keep(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(mcpserver.HeaderKeySessionID)
		if r.Method == http.MethodDelete && id != "" {
			ended := &deleteStatus{ResponseWriter: w, status: http.StatusOK}
			next.ServeHTTP(ended, r)
			if ended.status < http.StatusMultipleChoices {
				l.endStream(id)
			}
			return
		}
		if r.Method != http.MethodGet || id == "" {
			next.ServeHTTP(w, r)
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		r = r.WithContext(ctx)
		st := newListenStream(w)
		st.cancel = cancel
		l.add(id, st)
		unwritten := make(chan *listenNote, 1)
		go func() { unwritten <- st.writeQueued() }()
		next.ServeHTTP(st, r)
		l.remove(id, st)
		st.end()
		if n := <-unwritten; n != nil {
			l.fallback(id, *n)
		}
		for {
			select {
			case n := <-st.notes:
				l.fallback(id, n)
			default:
				return
			}
		}
	})
}

func (l *listenStreams) add(id string, st *listenStream) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.streams[id] = st // a later stream of the session takes over
}

// endStream ends the GET stream of a session that ended, if it has one.
func (l *listenStreams) endStream(id string) {
	l.mu.Lock()
	st := l.streams[id]
	l.mu.Unlock()
	if st != nil {
		st.cancel()
	}
}

// deleteStatus notes the status of the answer to a DELETE.
type deleteStatus struct {
	http.ResponseWriter
	status int
}

func (d *deleteStatus) WriteHeader(status int) {
	d.status = status
	d.ResponseWriter.WriteHeader(status)
}

func (l *listenStreams) remove(id string, st *listenStream) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.streams[id] == st {
		delete(l.streams, id)
	}
}

// send queues a notification for the session's event stream and reports
// whether it did: false when the session has none open, or its queue is
// full.
func (l *listenStreams) send(id, method string, params map[string]any) bool {
	l.mu.Lock()
	st := l.streams[id]
	l.mu.Unlock()
	if st == nil {
		return false
	}
	return st.queue(listenNote{method: method, params: params})
}

// encodeNotification is a notification as mcp-go writes it on a stream.
func encodeNotification(method string, params map[string]any) ([]byte, error) {
	data, err := json.Marshal(mcpgo.JSONRPCNotification{
		JSONRPC:      mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: method, Params: mcpgo.NotificationParams{AdditionalFields: params}},
	})
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", method, err)
	}
	return fmt.Appendf(nil, "event: message\ndata: %s\n\n", data), nil
}

// listenStream is one GET event stream's writer, shared by mcp-go and
// toolhub: each writes whole events under mu, so neither cuts into the
// other's. queue takes only state, so a client slow to read never holds up
// the sender.
type listenStream struct {
	http.ResponseWriter

	mu     sync.Mutex    // writes
	opened chan struct{} // closed when the event-stream header went out; under mu

	state   sync.Mutex
	ended   bool // the stream's handler returned; under state
	notes   chan listenNote
	stopped chan struct{} // closed by end

	cancel context.CancelFunc // ends the stream's request (its session ended)
}

func newListenStream(w http.ResponseWriter) *listenStream {
	return &listenStream{ResponseWriter: w, opened: make(chan struct{}),
		notes: make(chan listenNote, listenQueue), stopped: make(chan struct{})}
}

// queue hands a notification to writeQueued without waiting.
func (st *listenStream) queue(n listenNote) bool {
	st.state.Lock()
	defer st.state.Unlock()
	if st.ended {
		return false
	}
	select {
	case st.notes <- n:
		return true
	default:
		return false
	}
}

// writeQueued writes queued notifications once the header is out, until
// end or a failed write; it returns the one it could not write.
func (st *listenStream) writeQueued() *listenNote {
	select {
	case <-st.opened:
	case <-st.stopped:
		return nil
	}
	for {
		select {
		case n := <-st.notes:
			if !st.writeNote(n) {
				return &n
			}
		case <-st.stopped:
			return nil
		}
	}
}

// writeNote writes one notification as an event and reports whether it
// went out. keep waits for writeQueued, so a write never outlives the
// request.
func (st *listenStream) writeNote(n listenNote) bool {
	event, err := encodeNotification(n.method, n.params)
	if err != nil {
		return false
	}
	st.state.Lock()
	ended := st.ended
	st.state.Unlock()
	if ended {
		return false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, err := st.ResponseWriter.Write(event); err != nil {
		return false // the client is gone; mcp-go's handler sees it too
	}
	st.flushLocked()
	return true
}

// end marks the stream over; what is still queued is the caller's.
func (st *listenStream) end() {
	st.state.Lock()
	defer st.state.Unlock()
	st.ended = true
	close(st.stopped)
}

// WriteHeader notes when the event stream opens.
func (st *listenStream) WriteHeader(status int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.ResponseWriter.WriteHeader(status)
	select {
	case <-st.opened:
	default:
		if status == http.StatusOK && st.Header().Get("Content-Type") == "text/event-stream" {
			close(st.opened)
		}
	}
}

func (st *listenStream) Write(p []byte) (int, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.ResponseWriter.Write(p)
}

// Flush keeps the stream a stream: mcp-go streams only through a Flusher.
func (st *listenStream) Flush() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.flushLocked()
}

func (st *listenStream) flushLocked() {
	if f, ok := st.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (st *listenStream) Unwrap() http.ResponseWriter { return st.ResponseWriter }

// notifySession sends a notification to one session outside any of its
// calls: on its GET event stream when it has one open, else through
// mcp-go's queue of the session.
func (s *Server) notifySession(id, method string, params map[string]any) error {
	if s.listens.send(id, method, params) {
		return nil
	}
	return s.mcp.SendNotificationToSpecificClient(id, method, params)
}

// queueForSession hands mcp-go what a session's stream could not write.
func (s *Server) queueForSession(id string, n listenNote) {
	if err := s.mcp.SendNotificationToSpecificClient(id, n.method, n.params); err != nil {
		s.log.Debug("notification not delivered", "method", n.method, "err", err)
	}
}
