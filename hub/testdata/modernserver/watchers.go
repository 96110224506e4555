package main

import (
	"context"
	"slices"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// noteURI is the one resource, which clients may subscribe to.
const noteURI = "modern://note"

// watchers keeps who subscribed to which resources: sessions of the older
// protocol with resources/subscribe, 2026-07-28 clients in the filter of a
// subscriptions/listen stream, for as long as that stream lasts. mcp-go
// leaves both the bookkeeping and sending resources/updated to the server.
type watchers struct {
	mu      sync.Mutex
	watches map[mcpserver.ClientSession]*watch
}

type watch struct {
	uris     []string
	listenID any             // the listen request's id; nil for resources/subscribe
	stream   context.Context // the listen request's; nil for resources/subscribe
}

// seen is a BeforeAny hook.
func (w *watchers) seen(ctx context.Context, id any, method mcpgo.MCPMethod, message any) {
	session := mcpserver.ClientSessionFromContext(ctx)
	if session == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.watches == nil {
		w.watches = map[mcpserver.ClientSession]*watch{}
	}
	cur := w.watches[session]
	if cur == nil {
		cur = &watch{}
	}
	switch m := message.(type) {
	case *mcpgo.SubscriptionsListenRequest:
		w.watches[session] = &watch{uris: m.Params.Notifications.ResourceSubscriptions, listenID: id, stream: ctx}
	case *mcpgo.SubscribeRequest:
		cur.uris = append(cur.uris, m.Params.URI)
		w.watches[session] = cur
	case *mcpgo.UnsubscribeRequest:
		cur.uris = slices.DeleteFunc(cur.uris, func(u string) bool { return u == m.Params.URI })
		w.watches[session] = cur
	}
}

// notify sends resources/updated for uri to the clients subscribed to it
// now, and returns how many there were.
func (w *watchers) notify(uri string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for session, watch := range w.watches {
		if watch.stream != nil && watch.stream.Err() != nil {
			delete(w.watches, session) // the stream is over
			continue
		}
		if !slices.Contains(watch.uris, uri) {
			continue
		}
		params := mcpgo.NotificationParams{AdditionalFields: map[string]any{"uri": uri}}
		if watch.listenID != nil {
			params.Meta = map[string]any{mcpgo.MetaKeySubscriptionID: watch.listenID}
		}
		select {
		case session.NotificationChannel() <- mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION,
			Notification: mcpgo.Notification{Method: mcpgo.MethodNotificationResourceUpdated, Params: params}}:
			n++
		default: // a session nobody reads any more
		}
	}
	return n
}
