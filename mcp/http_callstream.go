package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// callStream is the response to one tools/call that shortHTTPCalls serves:
// plain JSON while the call sends nothing else, turned into an event stream
// (as mcp-go does) by the first notification or request the call sends the
// client before its result. A client that does not accept an event stream
// gets JSON alone (honourAccept). Safe for concurrent use.
type callStream struct {
	mu       sync.Mutex
	w        http.ResponseWriter
	rc       *http.ResponseController
	session  string
	asks     *clientAsks
	jsonOnly bool // the client does not accept an event stream
	events   bool // the response is an event stream
	done     bool // the result went out; nothing more can be sent
	status   int  // of a plain JSON response; 0 is 200
}

var (
	errCallStreamDone = errors.New("the call's response is complete")
	errJSONOnly       = errors.New("the client accepts no event stream (its Accept header names application/json alone)")
)

type callStreamKey struct{}

// newCallStream answers on w; accept is the request's Accept header.
func newCallStream(w http.ResponseWriter, session string, asks *clientAsks, accept []string) *callStream {
	return &callStream{
		w: w, rc: http.NewResponseController(w), session: session, asks: asks,
		jsonOnly: !acceptsEvents(accept),
	}
}

func withCallStream(ctx context.Context, c *callStream) context.Context {
	return context.WithValue(ctx, callStreamKey{}, c)
}

// callStreamFrom returns the stream of the short HTTP call ctx belongs to,
// nil for any other request.
func callStreamFrom(ctx context.Context) *callStream {
	c, _ := ctx.Value(callStreamKey{}).(*callStream)
	return c
}

// notify sends a notification ahead of the result; a client that accepts
// no event stream does not get it.
func (c *callStream) notify(method string, params map[string]any) error {
	if c.jsonOnly {
		return nil
	}
	msg, err := json.Marshal(mcpgo.JSONRPCNotification{
		JSONRPC:      mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{Method: method, Params: mcpgo.NotificationParams{AdditionalFields: params}},
	})
	if err != nil {
		return fmt.Errorf("encode %s: %w", method, err)
	}
	return c.event(msg)
}

// event writes msg as a server-sent event, starting the stream first.
func (c *callStream) event(msg []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return errCallStreamDone
	}
	return c.writeEvent(msg)
}

func (c *callStream) writeEvent(msg []byte) error {
	c.startEvents()
	out := make([]byte, 0, len(msg)+24)
	out = append(out, "event: message\ndata: "...)
	out = append(out, msg...)
	out = append(out, "\n\n"...)
	if _, err := c.w.Write(out); err != nil {
		return fmt.Errorf("write to the client: %w", err)
	}
	if err := c.rc.Flush(); err != nil {
		return fmt.Errorf("flush to the client: %w", err)
	}
	return nil
}

// finish sends the response: the last event of a stream, or the whole body
// as JSON.
func (c *callStream) finish(response []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return errCallStreamDone
	}
	c.done = true
	if c.events {
		return c.writeEvent(response)
	}
	status := c.status
	if status == 0 {
		status = http.StatusOK
	}
	h := c.w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(response)+1))
	c.w.WriteHeader(status)
	if _, err := c.w.Write(append(response, '\n')); err != nil {
		return fmt.Errorf("write to the client: %w", err)
	}
	return nil
}

// abandon ends the response without a result, as a request the client
// cancelled is not answered: an event stream ends as it is, and a response
// that was to be plain JSON becomes an event stream that ends at once (a
// request's stream may end without its response). A client that accepts no
// event stream must be given JSON, and gets the error cancelled, a JSON-RPC
// error response to request id.
func (c *callStream) abandon(id json.RawMessage) {
	if c.jsonOnly { // set once, at the start
		_ = c.finish(rpcError(id, mcpgo.REQUEST_INTERRUPTED, "request cancelled by the client"))
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return
	}
	c.done = true
	c.startEvents()
}

// startEvents makes the response an event stream, once; c.mu is held.
func (c *callStream) startEvents() {
	if c.events {
		return
	}
	h := c.w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	c.w.WriteHeader(http.StatusOK)
	c.events = true
}

// refused gives a plain JSON response the HTTP status 2026-07-28 gives a
// JSON-RPC error of code.
func (c *callStream) refused(code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status = modernErrorStatus(code)
}

// ask sends the client a request on this stream, as mcp-go sends a call's
// elicitation, and waits for the answer the client posts. A client that
// accepts no event stream cannot be asked.
func (c *callStream) ask(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if c.jsonOnly {
		return nil, fmt.Errorf("%s: %w", method, errJSONOnly)
	}
	id, answer := c.asks.open(c.session)
	defer c.asks.close(c.session, id)
	msg, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      string `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{mcpgo.JSONRPC_VERSION, id, method, params})
	if err != nil {
		return nil, fmt.Errorf("%s: encode the request: %w", method, err)
	}
	if err := c.event(msg); err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	select {
	case env := <-answer:
		if len(env.Error) > 0 && string(env.Error) != "null" {
			return nil, fmt.Errorf("%s: the client answered with an error: %s", method, rpcErrorMessage(env.Error))
		}
		return env.Result, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: the client did not answer: %w", method, context.Cause(ctx))
	}
}

// rpcErrorMessage is the message of a JSON-RPC error object, or the object.
func rpcErrorMessage(raw json.RawMessage) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	return string(raw)
}

// clientAsks are the requests short HTTP calls sent their clients and
// await answers to, by session and request id. Their ids are strings that
// mcp-go's own requests (numbers) never take, so an answer is told apart
// by its id alone.
type clientAsks struct {
	next    atomic.Uint64
	waiting sync.Map // session + "\x00" + id → chan envelope
}

func askKey(session, id string) string { return session + "\x00" + id }

func (a *clientAsks) open(session string) (string, chan envelope) {
	id := "toolhub-ask-" + strconv.FormatUint(a.next.Add(1), 10)
	answer := make(chan envelope, 1)
	a.waiting.Store(askKey(session, id), answer)
	return id, answer
}

func (a *clientAsks) close(session, id string) { a.waiting.Delete(askKey(session, id)) }

// answer hands env, a response the client posted on session, to the
// request waiting for it, and reports whether one was.
func (a *clientAsks) answer(session string, env envelope) bool {
	var id string
	if json.Unmarshal(env.ID, &id) != nil {
		return false
	}
	v, ok := a.waiting.LoadAndDelete(askKey(session, id))
	if ok {
		v.(chan envelope) <- env
	}
	return ok
}
