package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// A prompts/get, resources/read, completion/complete or tools/call that
// toolhub forwards goes through mcp-go's handlers, and mcp-go answers
// every error a handler returns as an internal error (-32603). When the
// downstream refused the request with invalid params (a prompt's missing
// argument) or resource not found, the client should get that error, as
// from the server itself; so should a tool call toolhub refuses itself (a
// refusal: a spent requestState, a task asked of a tool that runs none).
// The handler notes the error in a slot the transport put in the
// request's context, and the transport puts it in place of mcp-go's
// internal error: over stdio on the response mcp-go returns, over HTTP on
// the response mcp-go writes (passRemoteErrors). Calls the short paths
// serve answer their refusals themselves.

// passedCodes are the downstream errors a client gets as they are.
var passedCodes = map[int]bool{mcpgo.INVALID_PARAMS: true, mcpgo.RESOURCE_NOT_FOUND: true}

// passedCode is the code a client of its era gets for a downstream's:
// 2026-07-28 says a resource that is not there with invalid params, where
// earlier revisions have resource not found.
func passedCode(code int, modern bool) int {
	if modern && code == mcpgo.RESOURCE_NOT_FOUND {
		return mcpgo.INVALID_PARAMS
	}
	return code
}

// resourcesRead is the method readURI looks for.
var resourcesRead = []byte(`"resources/read"`)

type remoteErrorKey struct{}

// remoteErrorSlot holds what may mend the answer to one request: the
// downstream's error (or toolhub's refusal) that mcp-go turned into an
// internal error, whether mcp-go could not decode the request's params
// (noteUnparsable), and, for a resources/read, the URI asked for.
type remoteErrorSlot struct {
	mu sync.Mutex
	m  mend
}

// mend is what may mend one answer, as a slot holds it at one moment.
type mend struct {
	remote     *hub.RemoteError
	unparsable bool
	uri        string // set once, before the request is handled
}

func (s *remoteErrorSlot) mend() mend {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m
}

// set changes what the slot holds.
func (s *remoteErrorSlot) set(f func(*mend)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.m)
}

// mends reports whether the slot may change the request's answer.
func (s *remoteErrorSlot) mends() bool {
	m := s.mend()
	return m.remote != nil || m.unparsable || m.uri != ""
}

// withRemoteErrorSlot gives a request a slot for what may mend its answer.
func withRemoteErrorSlot(ctx context.Context, body []byte) (context.Context, *remoteErrorSlot) {
	slot := &remoteErrorSlot{m: mend{uri: readURI(body)}}
	return context.WithValue(ctx, remoteErrorKey{}, slot), slot
}

// readURI is the URI a resources/read asks for; "" for any other message.
func readURI(body []byte) string {
	if !bytes.Contains(body, resourcesRead) {
		return "" // not worth decoding: no resources/read
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method != string(mcpgo.MethodResourcesRead) {
		return ""
	}
	return m.Params.URI
}

// noteRemoteError keeps err's downstream error in ctx's slot when it is one
// a client gets as it is, and returns err.
func noteRemoteError(ctx context.Context, err error) error {
	var remote *hub.RemoteError
	if slot, ok := ctx.Value(remoteErrorKey{}).(*remoteErrorSlot); ok && errors.As(err, &remote) && passedCodes[remote.Code] {
		slot.set(func(m *mend) { m.remote = remote })
	}
	return err
}

// noteRefusal keeps err's refusal in ctx's slot, when err is one, and
// returns err.
func noteRefusal(ctx context.Context, err error) error {
	var r *refusal
	if slot, ok := ctx.Value(remoteErrorKey{}).(*remoteErrorSlot); ok && errors.As(err, &r) {
		remote := &hub.RemoteError{Method: string(mcpgo.MethodToolsCall), Code: r.code, Message: r.message, Data: r.data}
		slot.set(func(m *mend) { m.remote = remote })
	}
	return err
}

// noteUnparsable is mcp-go's error hook: a request whose params mcp-go
// could not decode into its types (a number where a name goes) is invalid
// params, as JSON-RPC has it, where mcp-go answers invalid request.
func noteUnparsable(ctx context.Context, _ any, _ mcpgo.MCPMethod, _ any, err error) {
	var unparsable *mcpserver.UnparsableMessageError
	if slot, ok := ctx.Value(remoteErrorKey{}).(*remoteErrorSlot); ok && errors.As(err, &unparsable) {
		slot.set(func(m *mend) { m.unparsable = true })
	}
}

// passOn mends msg, one JSON-RPC response or an event carrying one, by
// what m holds, and reports whether it changed it:
//   - an internal error becomes the remote's error (when there is one);
//   - mcp-go's invalid request for params it could not decode becomes
//     invalid params, with the same message;
//   - a not-found error of a resources/read that carries no data gets the
//     data {"uri": uri}, as the specification's example has it (mcp-go's
//     own answer for a URI no server has names it only in its message).
func passOn(msg []byte, m mend, modern bool) ([]byte, bool) {
	var head []byte // an event's lines before its data
	body := msg
	if bytes.HasPrefix(msg, []byte("event: ")) {
		i := bytes.Index(msg, []byte("data: "))
		if i < 0 {
			return nil, false
		}
		head, body = msg[:i+len("data: ")], msg[i+len("data: "):]
	}
	trimmed := bytes.TrimRight(body, "\n")
	tail := body[len(trimmed):]
	var resp struct {
		ID    json.RawMessage `json:"id"`
		Error *struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(trimmed, &resp) != nil || resp.Error == nil {
		return nil, false
	}
	e := resp.Error
	var data any
	if len(e.Data) > 0 {
		data = e.Data
	}
	code, message, data, ok := m.apply(e.Code, e.Message, data, modern)
	if !ok {
		return nil, false
	}
	out := rpcErrorData(resp.ID, code, message, data)
	return append(append(append([]byte(nil), head...), out...), tail...), true
}

// apply is the error m makes of one with code, message and data (nil for
// none), and whether it changed it.
func (m mend) apply(code int, message string, data any, modern bool) (int, string, any, bool) {
	switch {
	case m.remote != nil && code == mcpgo.INTERNAL_ERROR:
		return passedCode(m.remote.Code, modern), m.remote.Message, m.remote.Data, true
	case m.unparsable && code == mcpgo.INVALID_REQUEST:
		return mcpgo.INVALID_PARAMS, message, data, true
	case m.uri != "" && notFoundCode(code) && data == nil:
		return code, message, map[string]string{"uri": m.uri}, true
	}
	return code, message, data, false
}

// notFoundCode reports whether code is a resource's not-found error in
// either era (-32002 before 2026-07-28, invalid params since).
func notFoundCode(code int) bool {
	return code == mcpgo.RESOURCE_NOT_FOUND || code == mcpgo.INVALID_PARAMS
}

// passOnMessage is passOn for a response mcp-go returned (over stdio).
func passOnMessage(resp mcpgo.JSONRPCMessage, slot *remoteErrorSlot, modern bool) mcpgo.JSONRPCMessage {
	errResp, ok := resp.(mcpgo.JSONRPCError)
	if !ok {
		return resp
	}
	e := errResp.Error
	if code, message, data, changed := slot.mend().apply(e.Code, e.Message, e.Data, modern); changed {
		errResp.Error = mcpgo.NewJSONRPCErrorDetails(code, message, data)
	}
	return errResp
}

// passRemoteErrors gives mcp-go's answers to forwarded requests the
// downstream's error where mcp-go would answer an internal error, with the
// HTTP status 2026-07-28 gives that error.
func passRemoteErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body := readBody(r)
		ctx, slot := withRemoteErrorSlot(r.Context(), body)
		rw := &remoteErrorWriter{ResponseWriter: w, slot: slot, modern: modernEra(r.Header, body)}
		next.ServeHTTP(rw, r.WithContext(ctx))
		rw.flushPending()
	})
}

// remoteErrorWriter holds back a JSON response's status until its body
// shows whether it is the internal error to replace.
type remoteErrorWriter struct {
	http.ResponseWriter
	slot    *remoteErrorSlot
	modern  bool
	pending int // the held status; 0 for none
}

func (w *remoteErrorWriter) WriteHeader(status int) {
	if w.slot.mends() && strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.pending = status
		return
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *remoteErrorWriter) Write(p []byte) (int, error) {
	if w.slot.mends() {
		m := w.slot.mend()
		if out, ok := passOn(p, m, w.modern); ok {
			if w.pending != 0 && w.modern && m.remote != nil {
				w.pending = modernErrorStatus(passedCode(m.remote.Code, true))
			}
			w.Header().Del("Content-Length")
			w.flushPending()
			_, err := w.ResponseWriter.Write(out)
			return len(p), err
		}
	}
	w.flushPending()
	return w.ResponseWriter.Write(p)
}

func (w *remoteErrorWriter) flushPending() {
	if w.pending != 0 {
		w.ResponseWriter.WriteHeader(w.pending)
		w.pending = 0
	}
}

// Flush keeps the response a stream.
func (w *remoteErrorWriter) Flush() {
	w.flushPending()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *remoteErrorWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
