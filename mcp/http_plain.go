package mcp

import (
	"bytes"
	"net/http"
)

// plainResults answers a POST whose only message out is its response as
// application/json, as a client that accepts JSON is answered before its
// session got any notification.
//
// mcp-go marks a legacy session for event streams the first time any
// notification reaches it (a tools/list_changed when a server connects, a
// broadcast to every session) and from then on answers every request of
// that session as a server-sent event stream, even when nothing but the
// response travels on it: chunked, in two writes, and Go's client (mcp-go's
// included) closes the connection after each such stream, so every later
// call paid a new TCP connection. A response whose first event is the
// JSON-RPC response itself goes out as JSON instead; one whose first event
// is a notification or a request of the server's stays a stream, unchanged.
func plainResults(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !acceptsJSON(r.Header.Values("Accept")) {
			next.ServeHTTP(w, r)
			return
		}
		pw := &plainWriter{ResponseWriter: w}
		next.ServeHTTP(pw, r)
		pw.commit()
	})
}

// plainWriter holds back the header of an event stream until its first
// event shows whether it is the response alone.
type plainWriter struct {
	http.ResponseWriter
	held      bool // an event-stream header is waiting for the first event
	decided   bool // the header went out (or was rewritten)
	converted bool // the response went out as JSON
}

func (w *plainWriter) WriteHeader(status int) {
	if w.decided || w.held {
		return
	}
	if status == http.StatusOK && w.Header().Get("Content-Type") == "text/event-stream" {
		w.held = true
		return
	}
	w.decided = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *plainWriter) Write(p []byte) (int, error) {
	if !w.held || w.decided {
		w.decided = true
		return w.ResponseWriter.Write(p)
	}
	w.decided = true
	body, ok := sseResponse(p)
	if !ok {
		w.ResponseWriter.WriteHeader(http.StatusOK)
		return w.ResponseWriter.Write(p)
	}
	w.converted = true
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("Connection")
	w.ResponseWriter.WriteHeader(http.StatusOK)
	if _, err := w.ResponseWriter.Write(append(body, '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush sends a stream's header and events as they come. A response
// rewritten as JSON is complete and goes out when the handler returns, with
// its length.
func (w *plainWriter) Flush() {
	if w.converted {
		return
	}
	w.commit()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// commit sends a header still held back: the stream carried no event.
func (w *plainWriter) commit() {
	if w.held && !w.decided {
		w.decided = true
		w.ResponseWriter.WriteHeader(http.StatusOK)
	}
}

func (w *plainWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// sseEvent frames every message mcp-go writes on a stream: one event, in
// one Write, its data a single line of JSON.
var (
	ssePrefix = []byte("event: message\ndata: ")
	sseSuffix = []byte("\n\n")
	// rpcStart begins every message mcp-go encodes that has an id; a
	// response's next member is its result or error, a request's its
	// method.
	rpcStart = []byte(`{"jsonrpc":"2.0","id":`)
)

// sseResponse is the JSON-RPC response an event carries, when p is exactly
// one event and its data is a response (not a notification or a request).
func sseResponse(p []byte) ([]byte, bool) {
	data, ok := bytes.CutPrefix(p, ssePrefix)
	if !ok {
		return nil, false
	}
	data, ok = bytes.CutSuffix(data, sseSuffix)
	if !ok || bytes.IndexByte(data, '\n') >= 0 {
		return nil, false
	}
	rest, ok := bytes.CutPrefix(data, rpcStart)
	if !ok {
		return nil, false
	}
	n := idLength(rest)
	if n == 0 {
		return nil, false
	}
	rest = rest[n:]
	if !bytes.HasPrefix(rest, []byte(`,"result":`)) && !bytes.HasPrefix(rest, []byte(`,"error":`)) {
		return nil, false
	}
	return data, true
}

// idLength is the length of the JSON number or string p begins with, 0 for
// anything else.
func idLength(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if p[0] == '"' {
		for i := 1; i < len(p); i++ {
			switch p[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return 0
	}
	i := 0
	for i < len(p) && (p[i] == '-' || (p[i] >= '0' && p[i] <= '9')) {
		i++
	}
	return i
}
