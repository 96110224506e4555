package mcp

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// TestListenStreamGetsTheResourceUpdatesItAskedFor: a 2026-07-28 client's
// subscriptions/listen naming resourceSubscriptions gets
// notifications/resources/updated of those URIs on its stream, tagged with
// the stream's subscription id, and of no other; the downstream is
// subscribed while the stream lasts and unsubscribed when it ends.
func TestListenStreamGetsTheResourceUpdatesItAskedFor(t *testing.T) {
	w := newWatchedServer()
	relay := NewRelay()
	srv := testServer(t, testHub(t, relay, inProcess("watched", w.srv)), Options{Relay: relay})
	url := serveHTTP(t, srv, HTTPOptions{}).URL()

	var mu sync.Mutex
	var got []mcpgo.JSONRPCNotification
	c := connectHTTP(t, url, clientOptions{onNote: func(n mcpgo.JSONRPCNotification) {
		if n.Method == string(mcpgo.MethodNotificationResourceUpdated) {
			mu.Lock()
			got = append(got, n)
			mu.Unlock()
		}
	}})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	stop, err := c.ListenAsync(ctx, mcpgo.SubscriptionFilter{ResourceSubscriptions: []string{"note://a"}}, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the downstream subscription", func() bool { return slices.Contains(w.received(), "subscribe note://a") })

	w.updated("note://b") // not asked for
	w.updated("note://a")
	waitFor(t, "the update of note://a", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0
	})
	mu.Lock()
	first := got[0]
	mu.Unlock()
	if first.Params.AdditionalFields["uri"] != "note://a" || first.Params.Meta[mcpgo.MetaKeySubscriptionID] == nil {
		t.Errorf("update %+v, want note://a tagged with the subscription id", first.Params)
	}

	stop()
	waitFor(t, "the downstream unsubscription", func() bool { return slices.Contains(w.received(), "unsubscribe note://a") })
	mu.Lock()
	defer mu.Unlock()
	for _, n := range got {
		if n.Params.AdditionalFields["uri"] != "note://a" {
			t.Errorf("an update the stream did not ask for: %+v", n.Params)
		}
	}
}

// TestListenStreamGetsResourceUpdatesOverStdio: the same over stdio.
func TestListenStreamGetsResourceUpdatesOverStdio(t *testing.T) {
	w := newWatchedServer()
	relay := NewRelay()
	srv := testServer(t, testHub(t, relay, inProcess("watched", w.srv)), Options{Relay: relay})
	clientIn, clientOut := serveStdioPipes(t, srv, nil)
	c := mcpclient.NewClient(transport.NewIO(clientIn, clientOut, nil))
	updates := make(chan mcpgo.JSONRPCNotification, 8)
	initClient(t, c, clientOptions{onNote: func(n mcpgo.JSONRPCNotification) {
		if n.Method == string(mcpgo.MethodNotificationResourceUpdated) {
			updates <- n
		}
	}})
	stop, err := c.ListenAsync(t.Context(), mcpgo.SubscriptionFilter{ResourceSubscriptions: []string{"note://a"}}, func(error) {})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	waitFor(t, "the downstream subscription", func() bool { return slices.Contains(w.received(), "subscribe note://a") })
	w.updated("note://a")
	select {
	case n := <-updates:
		if n.Params.AdditionalFields["uri"] != "note://a" || n.Params.Meta[mcpgo.MetaKeySubscriptionID] == nil {
			t.Errorf("update %+v, want note://a tagged with the subscription id", n.Params)
		}
	case <-time.After(waitLimit):
		t.Fatal("no update of note://a arrived")
	}
}
