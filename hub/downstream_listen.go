package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A 2026-07-28 server sends notifications only on a subscriptions/listen
// stream, and only those its filter asks for: list changes of tools,
// resources and prompts always, and resources/updated for the URIs clients
// subscribed to, which replace the older resources/subscribe and
// resources/unsubscribe requests. A change of those URIs opens the stream
// again with the new filter; mcp-go's client ends the previous stream once
// the new one is asked for. A stream counts as open once the server's
// notifications/subscriptions/acknowledged says what it established.

// listenAckTimeout bounds the wait for a stream's acknowledgement when
// the connection is first made.
const listenAckTimeout = 5 * time.Second

// listening is a modern connection's listen stream and the resource URIs
// its filter names.
type listening struct {
	open sync.Mutex // one stream is opened at a time

	mu      sync.Mutex
	uris    []string
	stop    func()  // ends the current stream; nil before the first
	pending *stream // the stream being opened, awaiting its acknowledgement
	current *stream // the newest stream
}

// stream is one subscriptions/listen request.
type stream struct {
	reply chan listenReply // its acknowledgement, or its end before one
	// holding is set once the server acknowledged subscriptions: it
	// keeps the stream open from then on.
	holding atomic.Bool
}

// listenReply is what a stream being opened got first: the server's
// acknowledgement or the stream's end.
type listenReply struct {
	established mcpgo.SubscriptionFilter
	err         error
}

// listen opens the connection's stream with its current filter and waits
// for the server to acknowledge it. The stream does not end with ctx, only
// with the connection or a newer stream.
func (d *downstream) listen(ctx context.Context, conn *connection) (mcpgo.SubscriptionFilter, error) {
	l := &conn.listening
	l.open.Lock()
	defer l.open.Unlock()
	s := &stream{reply: make(chan listenReply, 1)}
	l.mu.Lock()
	filter := mcpgo.SubscriptionFilter{ToolsListChanged: true, ResourcesListChanged: true, PromptsListChanged: true,
		ResourceSubscriptions: slices.Clone(l.uris)}
	l.pending, l.current = s, s
	l.mu.Unlock()
	stop := d.startStream(ctx, conn, filter, s)
	d.keepStream(conn, stop)
	select {
	case r := <-s.reply:
		return r.established, r.err
	case <-ctx.Done():
		return mcpgo.SubscriptionFilter{}, fmt.Errorf("subscriptions/listen: no acknowledgement: %w", ctx.Err())
	case <-conn.done:
		return mcpgo.SubscriptionFilter{}, errors.New("subscriptions/listen: connection closed")
	}
}

// startStream runs one subscriptions/listen stream until stop is called or
// the stream ends. A stream that ends before its acknowledgement answers
// its reply: with its error, or with nothing established when the server
// closed it (a server that can send none of what the filter asks closes
// the stream at once, and the acknowledgement may not arrive). A stream
// that ends once it held subscriptions breaks the connection, so that the
// supervisor connects again and nothing the server sends is missed for
// good.
func (d *downstream) startStream(ctx context.Context, conn *connection, filter mcpgo.SubscriptionFilter, s *stream) (stop func()) {
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := conn.client.Listen(sctx, filter)
		conn.listening.mu.Lock()
		superseded := conn.listening.current != s
		conn.listening.mu.Unlock()
		if sctx.Err() != nil || superseded {
			return
		}
		if s.holding.Load() {
			conn.markBroken(fmt.Errorf("subscriptions/listen ended: %w", orStreamClosed(err)))
			return
		}
		if err != nil {
			err = fmt.Errorf("subscriptions/listen: %w", err)
		}
		select {
		case s.reply <- listenReply{err: err}:
		default:
		}
	}()
	return func() {
		cancel()
		<-done
	}
}

// keepStream makes stop the connection's current stream, ending the one
// it replaces, and ends it with the connection.
func (d *downstream) keepStream(conn *connection, stop func()) {
	l := &conn.listening
	l.mu.Lock()
	previous := l.stop
	l.stop = stop
	l.mu.Unlock()
	conn.workers.Add(1)
	go func() {
		defer conn.workers.Done()
		if previous != nil {
			previous() // superseded already; wait for it to return
			return
		}
		<-conn.done
		l.mu.Lock()
		current := l.stop
		l.mu.Unlock()
		current()
	}()
}

// acknowledged hands a stream's acknowledgement to the listen waiting for
// it.
func (l *listening) acknowledged(n mcpgo.JSONRPCNotification) {
	var established mcpgo.SubscriptionFilter
	raw, err := json.Marshal(n.Params.AdditionalFields["notifications"])
	if err == nil {
		err = json.Unmarshal(raw, &established)
	}
	l.mu.Lock()
	s := l.pending
	l.pending = nil
	l.mu.Unlock()
	if s == nil {
		return
	}
	s.holding.Store(err == nil && !established.IsEmpty())
	if err != nil {
		err = fmt.Errorf("subscriptions/acknowledged: %w", err)
	}
	select {
	case s.reply <- listenReply{established: established, err: err}:
	default:
	}
}

// subscribeByListening does a resources/subscribe or resources/unsubscribe
// on a modern connection: the URI joins or leaves the listen filter and the
// stream is opened again. It answers as the older requests do, with an
// empty result, once the server has acknowledged the new filter.
func (d *downstream) subscribeByListening(ctx context.Context, conn *connection, method string, params any) (json.RawMessage, error) {
	uri, err := paramsURI(params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	subscribe := method == string(mcpgo.MethodResourcesSubscribe)
	conn.listening.mu.Lock()
	has := slices.Contains(conn.listening.uris, uri)
	if has == subscribe {
		conn.listening.mu.Unlock()
		return json.RawMessage(`{}`), nil
	}
	if subscribe {
		conn.listening.uris = append(conn.listening.uris, uri)
	} else {
		conn.listening.uris = slices.DeleteFunc(conn.listening.uris, func(u string) bool { return u == uri })
	}
	conn.listening.mu.Unlock()
	callCtx, cancel := context.WithTimeout(ctx, d.callTimeout())
	defer cancel()
	established, err := d.listen(callCtx, conn)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	if subscribe && !slices.Contains(established.ResourceSubscriptions, uri) {
		return nil, fmt.Errorf("%s: server %s did not take a subscription to %q", method, d.spec.Name, uri)
	}
	return json.RawMessage(`{}`), nil
}

// paramsURI reads the uri of resources/subscribe's params.
func paramsURI(params any) (string, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return "", err
	}
	var p struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.URI == "" {
		return "", errors.New("params name no uri")
	}
	return p.URI, nil
}

func orStreamClosed(err error) error {
	if err == nil {
		return errors.New("the server closed the stream")
	}
	return err
}
