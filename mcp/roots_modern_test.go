package mcp

import (
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// connectModernWithRoots connects a 2026-07-28 client that answers
// roots/list input requests with roots.
func connectModernWithRoots(t *testing.T, url string, roots *clientRoots) *mcpclient.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + testToken}),
		transport.WithHTTPLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	c := mcpclient.NewClient(tr, mcpclient.WithRootsHandler(roots))
	initClient(t, c, clientOptions{})
	if v := c.ProtocolVersion(); v != mcpgo.ProtocolVersion20260728 {
		t.Fatalf("the client speaks %q, want %s", v, mcpgo.ProtocolVersion20260728)
	}
	return c
}

// TestModernClientsKeepTheirOwnRoots: 2026-07-28 clients have no session,
// so toolhub asks each for its roots before a call reaches a server that
// uses roots, and keeps a downstream session for those roots. Against
// server-everything, which caches the roots it is first given, two such
// clients and a 2025-11-25 one are each told only their own; a client
// whose roots changed is told the new ones at its next call.
func TestModernClientsKeepTheirOwnRoots(t *testing.T) {
	_, url := everythingForRoots(t)

	aliceRoots := &clientRoots{uris: []string{"file:///alice"}}
	alice := connectModernWithRoots(t, url, aliceRoots)
	bob := connectModernWithRoots(t, url, &clientRoots{uris: []string{"file:///bob"}})
	carol := connectWithRoots(t, url, &clientRoots{uris: []string{"file:///carol"}})
	told := func(c *mcpclient.Client) string {
		return resultText(callTool(t, c, "everything__get-roots-list", map[string]any{}))
	}
	check := func(name string, c *mcpclient.Client, want string, others ...string) {
		t.Helper()
		got := told(c)
		if !strings.Contains(got, want) {
			t.Fatalf("%s: told %q, want %s", name, got, want)
		}
		for _, other := range others {
			if strings.Contains(got, other) {
				t.Fatalf("%s: told %q, which holds %s", name, got, other)
			}
		}
	}
	check("alice", alice, "file:///alice", "file:///bob", "file:///carol")
	check("bob", bob, "file:///bob", "file:///alice", "file:///carol")
	check("carol", carol, "file:///carol", "file:///alice", "file:///bob")
	check("alice again", alice, "file:///alice", "file:///bob", "file:///carol")

	aliceRoots.set("file:///alice/moved")
	check("alice moved", alice, "file:///alice/moved", "file:///bob", "file:///carol")
	check("bob after alice moved", bob, "file:///bob", "alice", "file:///carol")
}

// TestServerGivenNoClientRootsIsNeverAskedFor: a server whose entry says
// "clientRoots": false is not told of roots (server-everything then leaves
// out its get-roots-list tool), so a 2026-07-28 client that declared roots
// is never asked for them on its way to it.
func TestServerGivenNoClientRootsIsNeverAskedFor(t *testing.T) {
	everything := testenv.NPMBin(t, "mcp-server-everything")
	relay := NewRelay()
	h := testHub(t, relay, hub.ServerSpec{
		Name: "everything", Transport: hub.TransportStdio, Command: everything, Args: []string{"stdio"},
		Locality: hub.LocalityLocal, NoClientRoots: true,
	})
	srv := testServer(t, h, Options{Expose: ExposeDirect, Relay: relay, Clients: h})
	url := serveHTTP(t, srv, HTTPOptions{Token: testToken}).URL()
	roots := &clientRoots{uris: []string{"file:///alice"}}
	alice := connectModernWithRoots(t, url, roots)
	for range 2 {
		if got := resultText(callTool(t, alice, "everything__echo", map[string]any{"message": "hi"})); !strings.Contains(got, "hi") {
			t.Fatalf("echo said %q", got)
		}
	}
	if _, ok := h.Snapshot().Lookup("everything__get-roots-list"); ok {
		t.Fatal("server-everything was told of roots: it lists get-roots-list")
	}
	if n := roots.answered(); n != 0 {
		t.Fatalf("the client was asked for its roots %d times, want never", n)
	}
}
