package mcp

import (
	"context"
	"slices"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// listenSubscriptions are the resource subscriptions of 2026-07-28
// subscriptions/listen streams (params.notifications.resourceSubscriptions).
// mcp-go acknowledges them but keeps no record, and its sessions do not
// take them: each stream's URIs are subscribed downstream while the stream
// lasts, and notifications/resources/updated of one of them is put on the
// stream's session, tagged with the stream's subscription id.
type listenSubscriptions struct {
	mu      sync.Mutex
	streams map[*listenStreamSubs]bool
}

// listenStreamSubs is one listen stream's subscriptions.
type listenStreamSubs struct {
	session mcpserver.ClientSession
	id      any // the subscriptions/listen request's id
	uris    []string
}

func (l *listenSubscriptions) add(ls *listenStreamSubs) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.streams == nil {
		l.streams = map[*listenStreamSubs]bool{}
	}
	l.streams[ls] = true
}

func (l *listenSubscriptions) remove(ls *listenStreamSubs) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.streams, ls)
}

// watching lists the streams subscribed to uri.
func (l *listenSubscriptions) watching(uri string) []*listenStreamSubs {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*listenStreamSubs
	for ls := range l.streams {
		if slices.Contains(ls.uris, uri) {
			out = append(out, ls)
		}
	}
	return out
}

// startListen subscribes downstream to the resources a listen stream asks
// for, for as long as the stream (its request's ctx) lasts. A URI the
// downstream refuses is left out (the log says why); mcp-go has
// acknowledged the filter by then.
func (s *Server) startListen(ctx context.Context, sub Subscriber, id any, req *mcpgo.SubscriptionsListenRequest) {
	session := mcpserver.ClientSessionFromContext(ctx)
	wanted := req.Params.Notifications.ResourceSubscriptions
	if session == nil || len(wanted) == 0 {
		return
	}
	ls := &listenStreamSubs{session: session, id: id}
	for _, uri := range wanted {
		if slices.Contains(ls.uris, uri) {
			continue
		}
		if err := sub.SubscribeResource(ctx, uri); err != nil {
			s.log.Warn("a listen stream's resource subscription was not forwarded", "uri", uri, "err", err)
			continue
		}
		ls.uris = append(ls.uris, uri)
	}
	s.listenSubs.add(ls)
	context.AfterFunc(ctx, func() {
		s.listenSubs.remove(ls)
		for _, uri := range ls.uris {
			if err := sub.UnsubscribeResource(context.WithoutCancel(ctx), uri); err != nil {
				s.log.Debug("unsubscribing an ended listen stream", "uri", uri, "err", err)
			}
		}
	})
}

// relayToListens puts notifications/resources/updated of uri on every
// listen stream subscribed to it.
func (s *Server) relayToListens(uri string, params map[string]any) {
	for _, ls := range s.listenSubs.watching(uri) {
		n := mcpgo.JSONRPCNotification{
			JSONRPC: mcpgo.JSONRPC_VERSION,
			Notification: mcpgo.Notification{
				Method: string(mcpgo.MethodNotificationResourceUpdated),
				Params: mcpgo.NotificationParams{
					Meta:             map[string]any{mcpgo.MetaKeySubscriptionID: ls.id},
					AdditionalFields: params,
				},
			},
		}
		select {
		case ls.session.NotificationChannel() <- n:
		default:
			s.log.Debug("resource update not delivered: the listen stream's queue is full", "uri", uri)
		}
	}
}
