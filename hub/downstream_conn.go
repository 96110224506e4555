package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/proc"
)

// cancelNotifyTimeout bounds sending one notifications/cancelled.
const cancelNotifyTimeout = 5 * time.Second

// connection is one live link to a downstream server: the mcp-go
// client (used for the handshake), its transport (used raw for tools/list and
// tools/call so results pass through unchanged), and for stdio the child
// process. It is replaced as a whole when it breaks.
type connection struct {
	server string
	limit  int64
	client *mcpclient.Client
	raw    transport.Interface
	child  *proc.Child // stdio only
	// httpClient carries a remote connection's requests; its idle
	// connections are closed with the connection (mcp-go leaves them).
	httpClient *http.Client
	// era is the protocol the handshake settled on, set before any
	// request but the handshake's own.
	era era
	// routingHeaders is set on Streamable HTTP connections, whose modern
	// requests carry routing headers (downstream_headers.go).
	routingHeaders bool
	headerTools    headerTools
	listening      listening // modern connections only (downstream_listen.go)
	// rawWatchesContext is set when raw itself returns as soon as the
	// request's context ends (stdio), so send needs no goroutine of its own.
	rawWatchesContext bool

	ids         atomic.Int64
	oversized   sync.Map      // raw JSON id -> size, responses the framer replaced
	listChanged chan struct{} // one pending tools/list_changed, coalesced

	broken     chan struct{}
	brokenOnce sync.Once
	reasonMu   sync.Mutex
	reason     error

	done      chan struct{} // closed by close
	closeOnce sync.Once
	workers   sync.WaitGroup
}

func newConnection(server string, limit int64) *connection {
	return &connection{
		server:      server,
		limit:       limit,
		listChanged: make(chan struct{}, 1),
		broken:      make(chan struct{}),
		done:        make(chan struct{}),
	}
}

// markBroken records why the connection can no longer be used (the first
// reason wins) and wakes the supervisor.
func (c *connection) markBroken(err error) {
	c.brokenOnce.Do(func() {
		c.reasonMu.Lock()
		c.reason = err
		c.reasonMu.Unlock()
		close(c.broken)
	})
}

// brokenReason is why the connection broke, or nil while it is healthy.
func (c *connection) brokenReason() error {
	c.reasonMu.Lock()
	defer c.reasonMu.Unlock()
	return c.reason
}

// awaitBrokenReason waits up to timeout for the connection to be marked
// broken and returns the reason, nil if it stayed healthy. A dying child
// closes its stdout before it is reaped, so a failed request may see the
// transport close a moment before the exit status is known.
func (c *connection) awaitBrokenReason(timeout time.Duration) error {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-c.broken:
	case <-timer.C:
	}
	return c.brokenReason()
}

// watch runs fn in a goroutine that close waits for.
func (c *connection) watch(fn func()) {
	c.workers.Add(1)
	go func() {
		defer c.workers.Done()
		fn()
	}()
}

// toolsChanged notes a tools/list_changed; a burst collapses into one.
func (c *connection) toolsChanged() {
	select {
	case c.listChanged <- struct{}{}:
	default:
	}
}

// close ends the connection: the client and transport are closed, the child's
// process group is killed and reaped, and the connection's goroutines have
// returned. It is safe on a nil or half-open connection.
func (c *connection) close(grace time.Duration) {
	if c == nil {
		return
	}
	c.closeOnce.Do(func() {
		close(c.done)
		switch {
		case c.client != nil:
			_ = c.client.Close()
		case c.raw != nil:
			_ = c.raw.Close()
		}
		if c.httpClient != nil {
			c.httpClient.CloseIdleConnections()
		}
		if c.child != nil {
			c.child.Stop(grace)
		}
		c.workers.Wait()
	})
}

// request sends one JSON-RPC request on the raw transport and returns its
// result unchanged. A result over the size limit is a *ResultTooLargeError;
// a JSON-RPC error from the server is returned wrapped.
func (c *connection) request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return c.requestIn(ctx, c.era, method, params)
}

// requestIn is request with the _meta of e, which is the connection's era
// or that era declaring more (era.withTasks).
func (c *connection) requestIn(ctx context.Context, e era, method string, params any) (json.RawMessage, error) {
	params, err := e.withEraMeta(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	id := fmt.Sprintf("toolhub-%d", c.ids.Add(1))
	limit := &responseLimit{max: c.limit}
	ctx = withResponseLimit(ctx, limit)
	req := transport.JSONRPCRequest{
		JSONRPC: mcpgo.JSONRPC_VERSION,
		ID:      mcpgo.NewRequestId(id),
		Method:  method,
		Params:  params,
		Header:  c.requestHeaders(method, params),
	}
	resp, err := c.send(ctx, req)
	if err != nil {
		if limit.exceeded.Load() {
			return nil, c.tooLarge(method, limit.size.Load())
		}
		if ctx.Err() != nil {
			c.cancel(req.ID, ctx.Err())
		}
		return nil, err
	}
	if resp.Error != nil {
		if size, ok := c.takeOversized(id); ok {
			return nil, c.tooLarge(method, size)
		}
		return nil, &RemoteError{Server: c.server, Method: method, Code: resp.Error.Code,
			Message: resp.Error.Message, Data: resp.Error.Data, cause: resp.Error.AsError()}
	}
	if int64(len(resp.Result)) > c.limit {
		return nil, c.tooLarge(method, int64(len(resp.Result)))
	}
	return resp.Result, nil
}

// send runs the transport's SendRequest but returns as soon as ctx ends, even
// when the transport (in-process, for one) does not watch ctx itself; such a
// transport's request runs on a goroutine of its own. The
// transport sees ctx's cancellation but not its deadline: the SSE transport
// would otherwise race ctx with a timer of its own and report a timeout that
// is not recognisable as one.
func (c *connection) send(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	tctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	if c.rawWatchesContext {
		defer cancel()
		defer stop()
		resp, err := c.raw.SendRequest(tctx, req)
		return checkSent(ctx, resp, err)
	}
	type outcome struct {
		resp *transport.JSONRPCResponse
		err  error
	}
	result := make(chan outcome, 1)
	go func() {
		defer cancel()
		defer stop()
		resp, err := c.raw.SendRequest(tctx, req)
		result <- outcome{resp, err}
	}()
	select {
	case out := <-result:
		return checkSent(ctx, out.resp, out.err)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkSent is the outcome of one SendRequest as send reports it: ctx's
// own error when ctx ended, an error for a missing response.
func checkSent(ctx context.Context, resp *transport.JSONRPCResponse, err error) (*transport.JSONRPCResponse, error) {
	if ctx.Err() != nil && err != nil {
		return nil, ctx.Err()
	}
	if err == nil && resp == nil {
		return nil, fmt.Errorf("no response")
	}
	return resp, err
}

// cancel tells the server to stop working on a request whose caller gave up.
// mcp-go sends notifications/cancelled only for requests made through its
// client, and never over HTTP; these requests bypass the client, so the hub
// sends it on every transport. Best effort, off the caller's path.
func (c *connection) cancel(id mcpgo.RequestId, why error) {
	n := mcpgo.JSONRPCNotification{
		JSONRPC: mcpgo.JSONRPC_VERSION,
		Notification: mcpgo.Notification{
			Method: string(mcpgo.MethodNotificationCancelled),
			Params: mcpgo.NotificationParams{
				AdditionalFields: map[string]any{"requestId": id, "reason": why.Error()},
			},
		},
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), cancelNotifyTimeout)
		defer cancel()
		_ = c.raw.SendNotification(ctx, n)
	}()
}

func (c *connection) noteOversized(id json.RawMessage, size int64) {
	c.oversized.Store(string(id), size)
}

func (c *connection) takeOversized(id string) (int64, bool) {
	key, _ := json.Marshal(id)
	size, ok := c.oversized.LoadAndDelete(string(key))
	if !ok {
		return 0, false
	}
	return size.(int64), true
}

func (c *connection) tooLarge(method string, size int64) error {
	return &ResultTooLargeError{Server: c.server, Method: method, Size: size, Limit: c.limit}
}
