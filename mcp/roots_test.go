package mcp

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// clientRoots is a test client's roots, which the test can change.
type clientRoots struct {
	mu    sync.Mutex
	uris  []string
	asked int // roots/list requests answered
}

// answered is how many roots/list requests the client answered.
func (r *clientRoots) answered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asked
}

func (r *clientRoots) set(uris ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.uris = uris
}

func (r *clientRoots) ListRoots(context.Context, mcpgo.ListRootsRequest) (*mcpgo.ListRootsResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked++
	result := &mcpgo.ListRootsResult{Roots: []mcpgo.Root{}}
	for _, uri := range r.uris {
		result.Roots = append(result.Roots, mcpgo.Root{URI: uri})
	}
	return result, nil
}

// connectWithRoots connects a legacy client that declares roots and keeps
// a GET stream open, so that it is asked for them between its calls too.
func connectWithRoots(t *testing.T, url string, roots *clientRoots) *mcpclient.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}),
		transport.WithHTTPLogger(quietLogger()), transport.WithContinuousListening())
	if err != nil {
		t.Fatal(err)
	}
	c := mcpclient.NewClient(tr, mcpclient.WithRootsHandler(roots))
	initClient(t, c, clientOptions{legacy: true})
	return c
}

// endSession ends c's legacy session with a DELETE, as a client does when
// it disconnects (mcp-go's own DELETE carries no bearer token).
func endSession(t *testing.T, url string, c *mcpclient.Client) {
	t.Helper()
	tr, ok := c.GetTransport().(*transport.StreamableHTTP)
	if !ok || tr.GetSessionId() == "" {
		t.Fatal("the client has no legacy session")
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Mcp-Session-Id", tr.GetSessionId())
	req.Header.Set("Mcp-Protocol-Version", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("DELETE answered %s", resp.Status)
	}
}

// everythingForRoots serves server-everything through toolhub over HTTP
// (with testToken) once it has asked for roots: it does right after
// initialization, outside any call, so nobody's are given, and it says so
// on stderr.
func everythingForRoots(t *testing.T) (*hub.Hub, string) {
	t.Helper()
	h, srv := everythingServerForRoots(t)
	return h, serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL()
}

// everythingServerForRoots is the hub and MCP server of everythingForRoots,
// once server-everything has asked for roots, not yet served.
func everythingServerForRoots(t *testing.T) (*hub.Hub, *Server) {
	t.Helper()
	everything := testenv.NPMBin(t, "mcp-server-everything")
	relay := NewRelay()
	h := testHub(t, relay, hub.ServerSpec{
		Name: "everything", Transport: hub.TransportStdio, Command: everything, Args: []string{"stdio"},
		Locality: hub.LocalityLocal,
	})
	srv := testServer(t, h, Options{Expose: ExposeDirect, Relay: relay, Clients: h})
	waitFor(t, "server-everything to ask for roots", func() bool {
		return strings.Contains(everythingStatus(h).StderrTail, "Failed to request roots")
	})
	return h, srv
}

// everythingStatus is server-everything's status in h.
func everythingStatus(h *hub.Hub) hub.ServerStatus {
	for _, st := range h.Servers() {
		if st.Name == "everything" {
			return st
		}
	}
	return hub.ServerStatus{}
}

// TestEachClientKeepsItsOwnRoots connects two clients with different roots
// to toolhub in front of server-everything, which caches the roots it is
// first given: each is told only its own; a client's roots/list_changed
// reaches its own session, which then reports the new roots; a client that
// disconnects takes its session with it.
func TestEachClientKeepsItsOwnRoots(t *testing.T) {
	h, url := everythingForRoots(t)

	aliceRoots := &clientRoots{uris: []string{"file:///alice"}}
	bobRoots := &clientRoots{uris: []string{"file:///bob"}}
	alice := connectWithRoots(t, url, aliceRoots)
	bob := connectWithRoots(t, url, bobRoots)
	told := func(c *mcpclient.Client) string {
		return resultText(callTool(t, c, "everything__get-roots-list", map[string]any{}))
	}
	for _, step := range []struct {
		name        string
		c           *mcpclient.Client
		want, other string
	}{
		{"alice", alice, "file:///alice", "file:///bob"},
		{"bob", bob, "file:///bob", "file:///alice"},
		{"alice again", alice, "file:///alice", "file:///bob"},
	} {
		if got := told(step.c); !strings.Contains(got, step.want) || strings.Contains(got, step.other) {
			t.Fatalf("%s: told %q; want %s and not %s", step.name, got, step.want, step.other)
		}
	}

	aliceRoots.set("file:///alice/moved")
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := alice.RootListChanges(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "alice's session to report her new roots", func() bool {
		return strings.Contains(told(alice), "file:///alice/moved")
	})
	if got := told(bob); !strings.Contains(got, "file:///bob") || strings.Contains(got, "alice") {
		t.Fatalf("bob was told %q after alice's roots changed", got)
	}

	if n := everythingStatus(h).ClientSessions; n != 2 {
		t.Fatalf("ClientSessions = %d, want 2", n)
	}
	endSession(t, url, bob)
	waitFor(t, "bob's session to end with his connection", func() bool {
		return everythingStatus(h).ClientSessions == 1
	})
}
