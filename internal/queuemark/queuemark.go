package queuemark

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Method is the method of a mark; a mark is never passed on to a client.
const Method = "notifications/toolhub/mark"

// Marks hands out marks for one queue. The zero value is ready to use.
type Marks struct {
	next    atomic.Int64
	mu      sync.Mutex
	waiting map[string]chan struct{}
}

// Await puts a mark in queue and waits until the reader reports it with
// Reached, ctx ends or limit passes.
func (m *Marks) Await(ctx context.Context, queue chan<- mcpgo.JSONRPCNotification, limit time.Duration) {
	id := strconv.FormatInt(m.next.Add(1), 10)
	reached := make(chan struct{})
	m.mu.Lock()
	if m.waiting == nil {
		m.waiting = make(map[string]chan struct{})
	}
	m.waiting[id] = reached
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.waiting, id)
		m.mu.Unlock()
	}()
	mark := mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION, Notification: mcpgo.Notification{
		Method: Method, Params: mcpgo.NotificationParams{AdditionalFields: map[string]any{"mark": id}}}}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case queue <- mark:
	case <-timer.C:
		return
	case <-ctx.Done():
		return
	}
	select {
	case <-reached:
	case <-timer.C:
	case <-ctx.Done():
	}
}

// Reached reports whether n is a mark; the queue's reader calls it for
// every notification it takes and skips the marks.
func (m *Marks) Reached(n mcpgo.JSONRPCNotification) bool {
	if n.Method != Method {
		return false
	}
	id, _ := n.Params.AdditionalFields["mark"].(string)
	m.mu.Lock()
	reached, ok := m.waiting[id]
	delete(m.waiting, id)
	m.mu.Unlock()
	if ok {
		close(reached)
	}
	return true
}
