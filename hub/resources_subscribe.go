package hub

import (
	"context"
	"fmt"
	"sync"
)

// subscriptions counts the hub's subscribers per resource URI and remembers
// which server each was forwarded to, so that a downstream is subscribed
// once however many clients watch a resource, unsubscribed when the last
// one stops, and subscribed again after it reconnects.
type subscriptions struct {
	mu    sync.Mutex
	byURI map[string]*subscription
}

type subscription struct {
	server string
	count  int
}

// SubscribeResource forwards resources/subscribe for uri to the server that
// owns it, unless another subscriber already made it; every call must be
// matched by one UnsubscribeResource. notifications/resources/updated from
// that server reach Options.OnNotification like every other notification.
func (h *Hub) SubscribeResource(ctx context.Context, uri string) error {
	h.subs.mu.Lock()
	if sub, ok := h.subs.byURI[uri]; ok {
		sub.count++
		h.subs.mu.Unlock()
		return nil
	}
	h.subs.mu.Unlock()

	owner, candidates := h.extras.resourceOwner(uri)
	if owner == "" {
		return fmt.Errorf("subscribe to resource %q: no server owns it (%s)", uri, ownerList(candidates))
	}
	if _, err := h.request(ctx, owner, "resources/subscribe", map[string]any{"uri": uri}); err != nil {
		return fmt.Errorf("subscribe to resource %q: %w", uri, err)
	}
	h.subs.mu.Lock()
	defer h.subs.mu.Unlock()
	if h.subs.byURI == nil {
		h.subs.byURI = map[string]*subscription{}
	}
	if sub, ok := h.subs.byURI[uri]; ok {
		sub.count++ // a concurrent subscriber got there first
		return nil
	}
	h.subs.byURI[uri] = &subscription{server: owner, count: 1}
	return nil
}

// UnsubscribeResource drops one subscriber of uri and forwards
// resources/unsubscribe when it was the last.
func (h *Hub) UnsubscribeResource(ctx context.Context, uri string) error {
	h.subs.mu.Lock()
	sub, ok := h.subs.byURI[uri]
	if !ok {
		h.subs.mu.Unlock()
		return nil
	}
	sub.count--
	if sub.count > 0 {
		h.subs.mu.Unlock()
		return nil
	}
	delete(h.subs.byURI, uri)
	h.subs.mu.Unlock()
	if _, err := h.request(ctx, sub.server, "resources/unsubscribe", map[string]any{"uri": uri}); err != nil {
		return fmt.Errorf("unsubscribe from resource %q: %w", uri, err)
	}
	return nil
}

// urisOn lists the subscribed URIs owned by server.
func (s *subscriptions) urisOn(server string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for uri, sub := range s.byURI {
		if sub.server == server {
			out = append(out, uri)
		}
	}
	return out
}

// resubscribeAsync subscribes a freshly (re)connected server again to the
// resources clients still watch on it, off the caller's goroutine (the
// server's supervisor, whose Run the hub's wait group already counts).
func (h *Hub) resubscribeAsync(ctx context.Context, server string) {
	uris := h.subs.urisOn(server)
	if len(uris) == 0 {
		return
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		h.resubscribe(ctx, server, uris)
	}()
}

func (h *Hub) resubscribe(ctx context.Context, server string, uris []string) {
	for _, uri := range uris {
		if _, err := h.request(ctx, server, "resources/subscribe", map[string]any{"uri": uri}); err != nil {
			h.log.Warn("resubscribing after reconnect failed", "server", server, "uri", uri, "err", err)
		}
	}
}
