package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sync"

	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// stdioTransport speaks JSON-RPC with a stdio server, one message a line:
// requests are written to its stdin, and the lines the framer passes on
// from its stdout are routed by one decoding each — a response to the
// request waiting for it, a notification to the handler, a request of the
// server's (sampling, elicitation, roots) to the request handler. It does
// what mcp-go's stdio transport does for a process the hub started itself,
// without its second reader and buffer and without decoding each line
// twice.
type stdioTransport struct {
	lines   lineSource
	stdin   io.WriteCloser
	writeMu sync.Mutex
	log     *slog.Logger

	mu      sync.Mutex
	pending map[string]chan *transport.JSONRPCResponse
	ctx     context.Context //nolint:containedctx // Start's: the transport's lifetime, as mcp-go's transports keep it

	handlerMu sync.RWMutex
	onNote    func(mcpgo.JSONRPCNotification)
	onRequest transport.RequestHandler

	startOnce sync.Once
	done      chan struct{}
	doneOnce  sync.Once
	closeOnce sync.Once
}

// lineSource yields the server's stdout one message at a time (the
// framer): a line with its newline, nil for a line to drop, or the error
// that ends the stream.
type lineSource interface {
	NextMessage() ([]byte, error)
}

var (
	_ transport.Interface              = (*stdioTransport)(nil)
	_ transport.BidirectionalInterface = (*stdioTransport)(nil)
)

func newStdioTransport(lines lineSource, stdin io.WriteCloser, log *slog.Logger) *stdioTransport {
	return &stdioTransport{
		lines:   lines,
		stdin:   stdin,
		log:     log,
		pending: make(map[string]chan *transport.JSONRPCResponse),
		ctx:     context.Background(),
		done:    make(chan struct{}),
	}
}

// Start begins reading; ctx is the context the server's requests are
// answered under (the connection's).
func (t *stdioTransport) Start(ctx context.Context) error {
	t.startOnce.Do(func() {
		t.mu.Lock()
		t.ctx = ctx
		t.mu.Unlock()
		go t.read()
	})
	return nil
}

func (t *stdioTransport) read() {
	defer t.finish()
	for {
		line, err := t.lines.NextMessage()
		if len(line) > 0 {
			t.route(line)
		}
		if err != nil {
			return
		}
	}
}

// finish ends every request still waiting: the stream is over.
func (t *stdioTransport) finish() { t.doneOnce.Do(func() { close(t.done) }) }

// wireMessage is any line a server writes, kept raw where routing does not
// need it decoded.
type wireMessage struct {
	ID     *mcpgo.RequestId           `json:"id"`
	Method string                     `json:"method"`
	Params json.RawMessage            `json:"params"`
	Result json.RawMessage            `json:"result"`
	Error  *mcpgo.JSONRPCErrorDetails `json:"error"`
}

func (t *stdioTransport) route(line []byte) {
	var msg wireMessage
	if err := json.Unmarshal(line, &msg); err != nil {
		t.log.Debug("stdio server message not understood", "err", err)
		return
	}
	hasID := msg.ID != nil && !msg.ID.IsNil()
	switch {
	case msg.Method != "" && !hasID:
		t.notification(msg)
	case msg.Method != "":
		t.request(msg)
	case hasID:
		t.response(msg)
	}
}

func (t *stdioTransport) notification(msg wireMessage) {
	n := mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION, Notification: mcpgo.Notification{Method: msg.Method}}
	if len(msg.Params) > 0 {
		if err := json.Unmarshal(msg.Params, &n.Params); err != nil {
			t.log.Debug("stdio server notification not understood", "method", msg.Method, "err", err)
			return
		}
	}
	t.handlerMu.RLock()
	handle := t.onNote
	t.handlerMu.RUnlock()
	if handle != nil {
		handle(n)
	}
}

func (t *stdioTransport) response(msg wireMessage) {
	key := msg.ID.String()
	t.mu.Lock()
	answer, ok := t.pending[key]
	delete(t.pending, key)
	t.mu.Unlock()
	if !ok {
		t.log.Debug("stdio server answered an unknown request", "id", key)
		return
	}
	answer <- &transport.JSONRPCResponse{JSONRPC: mcpgo.JSONRPC_VERSION, ID: *msg.ID, Result: msg.Result, Error: msg.Error}
}

// request answers a request of the server's on a goroutine of its own.
func (t *stdioTransport) request(msg wireMessage) {
	req := transport.JSONRPCRequest{JSONRPC: mcpgo.JSONRPC_VERSION, ID: *msg.ID, Method: msg.Method}
	if len(msg.Params) > 0 {
		req.Params = msg.Params
	}
	t.handlerMu.RLock()
	handle := t.onRequest
	t.handlerMu.RUnlock()
	if handle == nil {
		t.answer(*transport.NewJSONRPCErrorResponse(req.ID, mcpgo.METHOD_NOT_FOUND, "No request handler configured", nil))
		return
	}
	t.mu.Lock()
	ctx := t.ctx
	t.mu.Unlock()
	go func() {
		resp, err := handle(ctx, req)
		switch {
		case err != nil:
			t.answer(*transport.NewJSONRPCErrorResponse(req.ID, mcpgo.INTERNAL_ERROR, err.Error(), nil))
		case resp != nil:
			t.answer(*resp)
		}
	}()
}

func (t *stdioTransport) answer(resp transport.JSONRPCResponse) {
	if err := t.write(resp); err != nil {
		t.log.Debug("answer to a stdio server's request not sent", "err", err)
	}
}

// write sends one message as one line.
func (t *stdioTransport) write(msg any) error {
	body, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("encode message: %w", err)
	}
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	if _, err := t.stdin.Write(append(body, '\n')); err != nil {
		return fmt.Errorf("write to the server: %w", err)
	}
	return nil
}

// SendRequest writes req and waits for its response, ctx's end or the end
// of the stream (transport.ErrTransportClosed).
func (t *stdioTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	select {
	case <-t.done:
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	key := req.ID.String()
	answer := make(chan *transport.JSONRPCResponse, 1)
	t.mu.Lock()
	t.pending[key] = answer
	t.mu.Unlock()
	forget := func() {
		t.mu.Lock()
		delete(t.pending, key)
		t.mu.Unlock()
	}
	if err := t.write(req); err != nil {
		forget()
		return nil, err
	}
	select {
	case resp := <-answer:
		return checkedDiscover(req, resp), nil
	case <-t.done:
		select {
		case resp := <-answer: // answered just before the stream ended
			return checkedDiscover(req, resp), nil
		default:
		}
		forget()
		return nil, transport.ErrTransportClosed
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}

func (t *stdioTransport) SendNotification(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	select {
	case <-t.done:
		return transport.ErrTransportClosed
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	return t.write(n)
}

func (t *stdioTransport) SetNotificationHandler(handle func(mcpgo.JSONRPCNotification)) {
	t.handlerMu.Lock()
	defer t.handlerMu.Unlock()
	t.onNote = handle
}

func (t *stdioTransport) SetRequestHandler(handle transport.RequestHandler) {
	t.handlerMu.Lock()
	defer t.handlerMu.Unlock()
	t.onRequest = handle
}

// Close ends waiting requests and closes the server's stdin; stopping the
// process is the child's business (childProcess.stop).
func (t *stdioTransport) Close() error {
	t.finish()
	var err error
	t.closeOnce.Do(func() { err = t.stdin.Close() })
	return err
}

func (t *stdioTransport) GetSessionId() string { return "" }
