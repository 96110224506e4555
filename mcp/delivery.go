package mcp

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// deliveryWait bounds how long a call's result waits for the notifications
// sent during the call to be written to the client.
const deliveryWait = 2 * time.Second

// deliveryTracker is the stream a call's notifications travel on, as
// callRoute.awaitDelivered uses it: queuedOne after each notification
// queued, await before the result.
type deliveryTracker interface {
	queuedOne() int64
	await(ctx context.Context, n int64)
}

// delivery follows the notifications of one Streamable HTTP request: how
// many the request's calls queued for its response stream, and how many
// have been written to it.
//
// mcp-go writes a request's notifications from a goroutine of its own and
// its result from the handler's; when a notification is taken off the queue
// just as the result is written, the notification is dropped (mcp-go #969),
// so the last progress or log message of a call that ends right after it
// was often lost. A call's result therefore waits until everything it
// queued has been written.
type delivery struct {
	mu      sync.Mutex
	queued  int64
	written int64
	change  chan struct{} // closed and replaced on every write
}

func newDelivery() *delivery { return &delivery{change: make(chan struct{})} }

// queuedOne records one notification queued for the stream and returns its
// position, for await.
func (d *delivery) queuedOne() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.queued++
	return d.queued
}

func (d *delivery) wroteOne() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.written++
	close(d.change)
	d.change = make(chan struct{})
}

// await waits until the first n queued notifications are written, ctx ends
// or deliveryWait passes.
func (d *delivery) await(ctx context.Context, n int64) {
	timer := time.NewTimer(deliveryWait)
	defer timer.Stop()
	for {
		d.mu.Lock()
		done, change := d.written >= n, d.change
		d.mu.Unlock()
		if done {
			return
		}
		select {
		case <-change:
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		}
	}
}

type deliveryKey struct{}

// deliveryFrom is the stream of the request ctx belongs to: an HTTP
// request's (trackDelivery) or a stdio session; nil for others.
func deliveryFrom(ctx context.Context) deliveryTracker {
	if d, ok := ctx.Value(deliveryKey{}).(*delivery); ok {
		return d
	}
	if d, ok := mcpserver.ClientSessionFromContext(ctx).(deliveryTracker); ok {
		return d
	}
	return nil
}

// trackDelivery gives every request a delivery, in its context, fed by a
// response writer that counts the notifications written.
func trackDelivery(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d := newDelivery()
		ctx := context.WithValue(r.Context(), deliveryKey{}, d)
		next.ServeHTTP(&deliveryWriter{ResponseWriter: w, d: d}, r.WithContext(ctx))
	})
}

// deliveryWriter counts the server-sent events that carry a notification.
type deliveryWriter struct {
	http.ResponseWriter
	d *delivery
}

// notificationEvent starts every notification mcp-go writes as a server-sent
// event: one Write per event.
var notificationEvent = []byte(`data: {"jsonrpc":"2.0","method":"notifications/`)

func (w *deliveryWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	if err == nil && bytes.Contains(p[:min(len(p), len(notificationEvent)+32)], notificationEvent) {
		w.d.wroteOne()
	}
	return n, err
}

// Flush keeps the stream a stream: mcp-go streams only through a Flusher.
func (w *deliveryWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *deliveryWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
