package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A client of protocol 2026-07-28 takes no server-initiated requests: a
// server that needs input mid-call answers the call with an
// InputRequiredResult, and the client retries the call with the answers.
// Downstream servers of earlier protocols still send sampling/createMessage,
// elicitation/create and roots/list in the middle of a call. The bridge
// joins the two: the downstream call keeps running while the client is
// asked, its request waits in a parked exchange, and the client's retry
// (carrying requestState) delivers the answers and goes on waiting for the
// call's result or its next request.

// DefaultBridgeIdle is how long a parked call waits for the client's retry
// before it is cancelled.
const DefaultBridgeIdle = 5 * time.Minute

// exchange is one forwarded call of a 2026-07-28 client that outlives the
// client's requests: its downstream call, the requests the downstream is
// waiting on, and its result once it has one.
type exchange struct {
	token    string // its key in bridges.parked, "" before it first parks; guarded by bridges.mu
	tool     string
	hubToken string             // the progress token sent downstream, "" without one
	cancel   context.CancelFunc // ends the downstream call

	asks chan []*pendingInput // new requests from the downstream, each batch asked at once
	done chan struct{}        // closed when the downstream call has returned
	res  *mcpgo.CallToolResult
	// refused, in place of res, is a JSON-RPC error the client gets.
	refused *refusal

	next    atomic.Uint64 // numbers the requests asked
	mu      sync.Mutex
	pending map[string]*pendingInput // asked of the client, not yet answered
	busy    bool                     // a client request is resuming the exchange
	idle    *time.Timer
}

// pendingInput is one downstream request waiting for the client's answer.
type pendingInput struct {
	id     string
	req    mcpgo.InputRequest
	answer chan json.RawMessage // buffered: one answer
}

// bridges holds the open exchanges: those that have parked by their
// latest requestState token, those still in their first round (most
// calls, which never park) without one. Safe for concurrent use.
type bridges struct {
	idle time.Duration

	mu      sync.Mutex
	parked  map[string]*exchange
	running map[*exchange]struct{}
}

func newBridges(idle time.Duration) *bridges {
	if idle <= 0 {
		idle = DefaultBridgeIdle
	}
	return &bridges{idle: idle, parked: make(map[string]*exchange), running: make(map[*exchange]struct{})}
}

// open registers a new exchange for tool whose downstream call cancel ends.
func (b *bridges) open(tool string, cancel context.CancelFunc) *exchange {
	ex := &exchange{
		tool:    tool,
		cancel:  cancel,
		asks:    make(chan []*pendingInput),
		done:    make(chan struct{}),
		pending: make(map[string]*pendingInput),
		busy:    true, // its first round is the request that opened it
	}
	b.mu.Lock()
	b.running[ex] = struct{}{}
	b.mu.Unlock()
	return ex
}

// errUnknownState is the answer to a retry whose requestState names no
// waiting call.
var errUnknownState = errors.New("the requestState names no call waiting for input " +
	"(it finished, was cancelled, or waited too long); call the tool again without it")

// errBusyState is the answer to a retry of a call another request is
// already resuming.
var errBusyState = errors.New("another request is already resuming this call")

// resume claims the exchange token names for one client request.
func (b *bridges) resume(token, tool string) (*exchange, error) {
	b.mu.Lock()
	ex := b.parked[token]
	b.mu.Unlock()
	if ex == nil || ex.tool != tool {
		return nil, errUnknownState
	}
	ex.mu.Lock()
	defer ex.mu.Unlock()
	if ex.busy {
		return nil, errBusyState
	}
	ex.busy = true
	if ex.idle != nil {
		ex.idle.Stop()
		ex.idle = nil
	}
	return ex, nil
}

// park releases the exchange until the client's retry, cancelling it when
// none comes within the idle time, and returns the requestState the retry
// must carry. Each round gets a new one: a state already used, or one
// from an earlier round, names nothing.
func (b *bridges) park(ex *exchange) string {
	token := newStateToken()
	b.mu.Lock()
	b.forget(ex)
	ex.token = token
	b.parked[token] = ex
	b.mu.Unlock()
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.busy = false
	ex.idle = time.AfterFunc(b.idle, func() { b.close(ex) })
	return token
}

// close ends the exchange and forgets it; the downstream call, if still
// running, is cancelled.
func (b *bridges) close(ex *exchange) {
	b.mu.Lock()
	b.forget(ex)
	b.mu.Unlock()
	ex.mu.Lock()
	if ex.idle != nil {
		ex.idle.Stop()
		ex.idle = nil
	}
	ex.mu.Unlock()
	ex.cancel()
}

// closeAll ends every exchange (the server is closing).
func (b *bridges) closeAll() {
	b.mu.Lock()
	all := make([]*exchange, 0, len(b.parked)+len(b.running))
	for _, ex := range b.parked {
		all = append(all, ex)
	}
	for ex := range b.running {
		all = append(all, ex)
	}
	b.mu.Unlock()
	for _, ex := range all {
		b.close(ex)
	}
}

// count is how many exchanges are open.
func (b *bridges) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.parked) + len(b.running)
}

// forget removes ex from the open exchanges; b.mu is held.
func (b *bridges) forget(ex *exchange) {
	delete(b.running, ex)
	if ex.token != "" {
		delete(b.parked, ex.token)
	}
}

// newStateToken is an unguessable requestState: it is all a retry needs to
// reach the waiting call. Only a call that parks gets one.
func newStateToken() string {
	var buf [16]byte
	_, _ = rand.Read(buf[:])
	return "toolhub-" + hex.EncodeToString(buf[:])
}
