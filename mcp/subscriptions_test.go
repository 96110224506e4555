package mcp

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// watchedServer is an in-process downstream with two subscribable
// resources, a prompt whose argument completes, and a record of the
// subscribe and unsubscribe requests it received.
type watchedServer struct {
	srv *mcpserver.MCPServer

	mu       sync.Mutex
	requests []string
}

func newWatchedServer() *watchedServer {
	w := &watchedServer{}
	hooks := &mcpserver.Hooks{}
	hooks.AddAfterSubscribe(func(_ context.Context, _ any, req *mcpgo.SubscribeRequest, _ *mcpgo.EmptyResult) {
		w.record("subscribe " + req.Params.URI)
	})
	hooks.AddAfterUnsubscribe(func(_ context.Context, _ any, req *mcpgo.UnsubscribeRequest, _ *mcpgo.EmptyResult) {
		w.record("unsubscribe " + req.Params.URI)
	})
	w.srv = mcpserver.NewMCPServer("watched", "1",
		mcpserver.WithResourceCapabilities(true, false),
		mcpserver.WithPromptCapabilities(false),
		mcpserver.WithHooks(hooks),
		mcpserver.WithCompletions(),
		mcpserver.WithPromptCompletionProvider(echoCompletion{}))
	for _, uri := range []string{"note://a", "note://b"} {
		w.srv.AddResource(mcpgo.NewResource(uri, uri), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: uri, Text: "note"}}, nil
		})
	}
	w.srv.AddPrompt(mcpgo.NewPrompt("greet", mcpgo.WithArgument("name")), func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		return mcpgo.NewGetPromptResult("hi", nil), nil
	})
	return w
}

func (w *watchedServer) record(what string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.requests = append(w.requests, what)
}

func (w *watchedServer) received() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.requests)
}

// updated tells every connected client (the hub) that uri changed.
func (w *watchedServer) updated(uri string) {
	w.srv.SendNotificationToAllClients(mcpgo.MethodNotificationResourceUpdated, map[string]any{"uri": uri})
}

// echoCompletion completes a prompt argument with the prompt's own name and
// the typed value, so the test sees what the downstream was asked.
type echoCompletion struct{}

func (echoCompletion) CompletePromptArgument(_ context.Context, prompt string, arg mcpgo.CompleteArgument, _ mcpgo.CompleteContext) (*mcpgo.Completion, error) {
	return &mcpgo.Completion{Values: []string{prompt + ":" + arg.Name + "=" + arg.Value}}, nil
}

// updates collects the resources/updated URIs one client received.
type updates struct {
	mu   sync.Mutex
	uris []string
	seen chan struct{}
}

func newUpdates() *updates { return &updates{seen: make(chan struct{}, 16)} }

func (u *updates) onNote(n mcpgo.JSONRPCNotification) {
	if n.Method != mcpgo.MethodNotificationResourceUpdated {
		return
	}
	uri, _ := n.Params.AdditionalFields["uri"].(string)
	u.mu.Lock()
	u.uris = append(u.uris, uri)
	u.mu.Unlock()
	u.seen <- struct{}{}
}

func (u *updates) list() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.uris)
}

// TestResourceUpdatesReachOnlySubscribers subscribes alice to note://a and
// bob to note://b; each must get only its own resource's updates, and the
// downstream is unsubscribed when alice stops watching.
func TestResourceUpdatesReachOnlySubscribers(t *testing.T) {
	w := newWatchedServer()
	relay := NewRelay()
	h := testHub(t, relay, inProcess("watched", w.srv))
	url := serveHTTP(t, testServer(t, h, Options{Relay: relay}), HTTPOptions{}).URL()
	aliceSees, bobSees := newUpdates(), newUpdates()
	alice := connectAnswering(t, url, true, aliceSees.onNote)
	bob := connectAnswering(t, url, true, bobSees.onNote)
	subscribe(t, alice, "note://a")
	subscribe(t, bob, "note://b")

	w.updateUntilSeen(t, "note://a", aliceSees)
	w.updateUntilSeen(t, "note://b", bobSees)
	if got := aliceSees.list(); !onlyURI(got, "note://a") {
		t.Errorf("alice got updates for %v", got)
	}
	if got := bobSees.list(); !onlyURI(got, "note://b") {
		t.Errorf("bob got updates for %v", got)
	}
	before := len(aliceSees.list())

	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := alice.Unsubscribe(ctx, mcpgo.UnsubscribeRequest{Params: mcpgo.UnsubscribeParams{URI: "note://a"}}); err != nil {
		t.Fatal(err)
	}
	w.updated("note://a")
	w.updateUntilSeen(t, "note://b", bobSees)
	if got := aliceSees.list(); len(got) != before {
		t.Errorf("alice still gets updates after unsubscribing: %v", got)
	}
	want := []string{"subscribe note://a", "subscribe note://b", "unsubscribe note://a"}
	if got := w.received(); !slices.Equal(got, want) {
		t.Errorf("the downstream received %v, want %v", got, want)
	}
}

func TestSubscribingToAnUnknownResourceIsRefused(t *testing.T) {
	relay := NewRelay()
	h := testHub(t, relay, inProcess("watched", newWatchedServer().srv), inProcess("other", newWatchedServer().srv))
	url := serveHTTP(t, testServer(t, h, Options{Relay: relay}), HTTPOptions{}).URL()
	c := connectAnswering(t, url, true, nil)
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	err := c.Subscribe(ctx, mcpgo.SubscribeRequest{Params: mcpgo.SubscribeParams{URI: "note://nobody"}})
	if err == nil || !strings.Contains(err.Error(), `"note://nobody": no server owns it`) {
		t.Fatalf("subscribe = %v, want a refusal naming the URI", err)
	}
}

func TestCompletionReachesThePromptsServer(t *testing.T) {
	h := testHub(t, nil, inProcess("watched", newWatchedServer().srv))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	c := connectAnswering(t, url, true, nil)
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	var req mcpgo.CompleteRequest
	req.Params.Ref = mcpgo.PromptReference{Type: "ref/prompt", Name: "watched__greet"}
	req.Params.Argument = mcpgo.CompleteArgument{Name: "name", Value: "al"}
	res, err := c.Complete(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// The downstream is asked under its own prompt name.
	if want := []string{"greet:name=al"}; !slices.Equal(res.Completion.Values, want) {
		t.Fatalf("values %v, want %v", res.Completion.Values, want)
	}
}

func subscribe(t *testing.T, c *mcpclient.Client, uri string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := c.Subscribe(ctx, mcpgo.SubscribeRequest{Params: mcpgo.SubscribeParams{URI: uri}}); err != nil {
		t.Fatalf("subscribe %s: %v", uri, err)
	}
}

// updateUntilSeen sends uri's update until u has seen one more. One send
// may not arrive: until the client's event stream is open, an update goes
// through mcp-go's queue of the session, whose reader for a request just
// answered can drop it (see listenStreams). A send not seen within
// updateRetry is sent again.
func (w *watchedServer) updateUntilSeen(t *testing.T, uri string, u *updates) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	for {
		w.updated(uri)
		select {
		case <-u.seen:
			return
		case <-time.After(updateRetry):
		case <-ctx.Done():
			t.Fatalf("no update of %s arrived", uri)
		}
	}
}

// updateRetry is how long updateUntilSeen waits for one send.
const updateRetry = 5 * time.Second

// onlyURI reports whether got holds uri and nothing else.
func onlyURI(got []string, uri string) bool {
	return len(got) > 0 && !slices.ContainsFunc(got, func(g string) bool { return g != uri })
}
