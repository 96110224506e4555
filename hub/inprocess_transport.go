package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/internal/queuemark"
)

// flushWait bounds how long a result from an in-process server waits for
// the notifications sent before it to be handed on.
const flushWait = 2 * time.Second

// inProcessTransport connects the hub to an MCP server in the same process,
// as mcp-go's InProcessTransport does, and in addition hands a call's
// result back only after the notifications the server sent during the call
// (progress, log messages) have reached the notification handler.
//
// The server queues notifications on its session; a goroutine of the
// transport hands them on, so without Flush a result would often overtake
// the last progress of its call, which then finds the call over and is
// dropped. Flush puts a marker in the same queue after the result and waits
// for the goroutine to reach it.
type inProcessTransport struct {
	server  *mcpserver.MCPServer
	session *mcpserver.InProcessSession

	notifyMu sync.RWMutex
	onNote   func(mcpgo.JSONRPCNotification)

	marks     queuemark.Marks
	startOnce sync.Once
	closeOnce sync.Once
	done      chan struct{}
}

var _ transport.Interface = (*inProcessTransport)(nil)

// inProcessSeq numbers the in-process sessions of this process.
var inProcessSeq atomic.Uint64

// inProcessSessionID is a session id no other in-process session has.
// mcp-go's own is the wall clock in nanoseconds, which Windows advances in
// ticks, so two sessions opened within one tick got the same id and the
// second was refused ("session already exists").
func inProcessSessionID() string {
	return "hub-inprocess-" + strconv.FormatUint(inProcessSeq.Add(1), 10)
}

func newInProcessTransport(srv *mcpserver.MCPServer, c inProcessClient) *inProcessTransport {
	return &inProcessTransport{
		server:  srv,
		session: mcpserver.NewInProcessSessionWithHandlers(inProcessSessionID(), c, c, c),
		done:    make(chan struct{}),
	}
}

func (t *inProcessTransport) Start(ctx context.Context) error {
	select {
	case <-t.done:
		return transport.ErrTransportClosed
	default:
	}
	var err error
	t.startOnce.Do(func() {
		if err = t.server.RegisterSession(ctx, t.session); err != nil {
			err = fmt.Errorf("register in-process session: %w", err)
			return
		}
		go t.handOn()
	})
	return err
}

// handOn passes the session's notifications to the handler in order.
func (t *inProcessTransport) handOn() {
	notes := t.session.ClientNotifications()
	for {
		select {
		case <-t.done:
			return
		case n := <-notes:
			if t.marks.Reached(n) {
				continue
			}
			t.notifyMu.RLock()
			handle := t.onNote
			t.notifyMu.RUnlock()
			if handle != nil {
				handle(n)
			}
		}
	}
}

func (t *inProcessTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	answer := t.server.HandleMessage(t.server.WithContext(ctx, t.session), body)
	raw, err := json.Marshal(answer)
	if err != nil {
		return nil, fmt.Errorf("encode response: %w", err)
	}
	var resp transport.JSONRPCResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, fmt.Errorf("decode response: %w", err)
	}
	return &resp, nil
}

// Flush waits until every notification the server queued before now has
// been handed on, or flushWait passes, or ctx ends.
func (t *inProcessTransport) Flush(ctx context.Context) {
	t.marks.Await(ctx, t.session.NotificationChannel(), flushWait)
}

func (t *inProcessTransport) SendNotification(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	body, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("encode notification: %w", err)
	}
	t.server.HandleMessage(t.server.WithContext(ctx, t.session), body)
	return nil
}

func (t *inProcessTransport) SetNotificationHandler(handle func(mcpgo.JSONRPCNotification)) {
	t.notifyMu.Lock()
	defer t.notifyMu.Unlock()
	t.onNote = handle
}

func (t *inProcessTransport) Close() error {
	t.closeOnce.Do(func() {
		close(t.done)
		t.startOnce.Do(func() {}) // a Start after Close registers nothing
		t.server.UnregisterSession(context.Background(), t.session.SessionID())
	})
	return nil
}

func (t *inProcessTransport) GetSessionId() string { return "" }

// flusher is a transport that can wait for the notifications queued before
// a result.
type flusher interface {
	Flush(ctx context.Context)
}
