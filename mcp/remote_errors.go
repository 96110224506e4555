package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

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

// forwardedMethods are the requests whose handlers note downstream errors.
var forwardedMethods = [][]byte{[]byte(`"prompts/get"`), resourcesRead, []byte(`"completion/complete"`),
	[]byte(`"tools/call"`)}

// resourcesRead is the method readURI looks for.
var resourcesRead = []byte(`"resources/read"`)

type remoteErrorKey struct{}

// remoteErrorSlot holds the downstream error of one request, and, for a
// resources/read, the URI asked for.
type remoteErrorSlot struct {
	mu  sync.Mutex
	err *hub.RemoteError
	uri string // set once, before the request is handled
}

func (s *remoteErrorSlot) get() *hub.RemoteError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// mends reports whether the slot may change the request's answer: it holds
// a downstream's error, or the URI a not-found answer should name.
func (s *remoteErrorSlot) mends() bool { return s.get() != nil || s.uri != "" }

// withRemoteErrorSlot gives a request whose body names a forwarded method a
// slot for its downstream's error; other requests get none.
func withRemoteErrorSlot(ctx context.Context, body []byte) (context.Context, *remoteErrorSlot) {
	if !slices.ContainsFunc(forwardedMethods, func(m []byte) bool { return bytes.Contains(body, m) }) {
		return ctx, nil
	}
	slot := &remoteErrorSlot{uri: readURI(body)}
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
		slot.mu.Lock()
		slot.err = remote
		slot.mu.Unlock()
	}
	return err
}

// noteRefusal keeps err's refusal in ctx's slot, when err is one, and
// returns err.
func noteRefusal(ctx context.Context, err error) error {
	var r *refusal
	if slot, ok := ctx.Value(remoteErrorKey{}).(*remoteErrorSlot); ok && errors.As(err, &r) {
		slot.mu.Lock()
		slot.err = &hub.RemoteError{Method: string(mcpgo.MethodToolsCall), Code: r.code, Message: r.message, Data: r.data}
		slot.mu.Unlock()
	}
	return err
}

// passOn mends msg, one JSON-RPC response or an event carrying one, and
// reports whether it changed it: an internal error becomes remote's error
// (when remote is not nil); a not-found error of a resources/read that
// carries no data gets the data {"uri": uri}, as the specification's
// example has it (mcp-go's own answer for a URI no server has names it
// only in its message).
func passOn(msg []byte, remote *hub.RemoteError, uri string, modern bool) ([]byte, bool) {
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
	var out []byte
	switch e := resp.Error; {
	case remote != nil && e.Code == mcpgo.INTERNAL_ERROR:
		out = rpcErrorData(resp.ID, passedCode(remote.Code, modern), remote.Message, remote.Data)
	case uri != "" && notFoundCode(e.Code) && len(e.Data) == 0:
		out = rpcErrorData(resp.ID, e.Code, e.Message, map[string]string{"uri": uri})
	default:
		return nil, false
	}
	return append(append(append([]byte(nil), head...), out...), tail...), true
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
	switch e := errResp.Error; {
	case slot.get() != nil && e.Code == mcpgo.INTERNAL_ERROR:
		remote := slot.get()
		errResp.Error = mcpgo.NewJSONRPCErrorDetails(passedCode(remote.Code, modern), remote.Message, remote.Data)
	case slot.uri != "" && notFoundCode(e.Code) && e.Data == nil:
		errResp.Error = mcpgo.NewJSONRPCErrorDetails(e.Code, e.Message, map[string]string{"uri": slot.uri})
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
		if slot == nil {
			next.ServeHTTP(w, r)
			return
		}
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
		remote := w.slot.get()
		if out, ok := passOn(p, remote, w.slot.uri, w.modern); ok {
			if w.pending != 0 && w.modern && remote != nil {
				w.pending = modernErrorStatus(passedCode(remote.Code, true))
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
