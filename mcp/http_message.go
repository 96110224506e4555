package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"unicode/utf8"
)

// The handlers in front of mcp-go each look at the request's JSON-RPC
// message: the envelope checks, the era's, the short paths'. The message is
// decoded once, the first time one of them asks (readMessage), and kept
// with the body limitBody read; a handler that rewrites the body
// (withMetaVersion) puts a new one in place, decoded afresh.

type bodyKey struct{}

// requestBody is a request's body and, once asked for, its message.
type requestBody struct {
	data    []byte
	decoded bool
	msg     rawMessage
	err     error // the message's decoding error
}

// rawMessage is a JSON-RPC message with every member left as it came.
type rawMessage struct {
	ID     json.RawMessage `json:"id"`
	Method json.RawMessage `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// errNoBody is readMessage's error for a request limitBody read no body of.
var errNoBody = errors.New("the request has no body")

// withBody is ctx carrying body as the request's body.
func withBody(ctx context.Context, body []byte) context.Context {
	return context.WithValue(ctx, bodyKey{}, &requestBody{data: body})
}

// readBody is the request body limitBody read, for the handlers after it
// that look at it before mcp-go; nil when there was none.
func readBody(r *http.Request) []byte {
	if b, ok := r.Context().Value(bodyKey{}).(*requestBody); ok {
		return b.data
	}
	return nil
}

// readMessage is the request body decoded as one JSON-RPC message (a body
// that is not a JSON object gives an error), decoded on the first call
// only. The handlers run one after another on the request's goroutine, so
// the memo needs no lock.
func readMessage(r *http.Request) (*rawMessage, error) {
	b, ok := r.Context().Value(bodyKey{}).(*requestBody)
	if !ok {
		return nil, errNoBody
	}
	if !b.decoded {
		b.msg, b.err = decodeMessage(b.data)
		b.decoded = true
	}
	return &b.msg, b.err
}

// decodeMessage decodes body as one JSON-RPC message.
func decodeMessage(body []byte) (rawMessage, error) {
	var m rawMessage
	err := json.Unmarshal(bytes.TrimSpace(body), &m)
	return m, err
}

// requestEnvelope is the request's message as an envelope; ok is false
// when the body is not a JSON object or its method not a string.
func requestEnvelope(r *http.Request) (envelope, bool) {
	m, err := readMessage(r)
	if err != nil {
		return envelope{}, false
	}
	return m.envelope()
}

// envelope is m with its method read as a string; ok is false when the
// method is not one.
func (m *rawMessage) envelope() (envelope, bool) {
	env := envelope{ID: m.ID, Params: m.Params, Result: m.Result, Error: m.Error}
	if len(m.Method) == 0 || bytes.Equal(m.Method, []byte("null")) {
		return env, true
	}
	// The common case, a quoted method without escapes, is taken as it
	// stands (encoding/json would replace invalid UTF-8).
	if n := len(m.Method); n >= 2 && m.Method[0] == '"' && m.Method[n-1] == '"' &&
		bytes.IndexByte(m.Method, '\\') < 0 && utf8.Valid(m.Method) {
		env.Method = string(m.Method[1 : n-1])
		return env, true
	}
	return env, json.Unmarshal(m.Method, &env.Method) == nil
}
