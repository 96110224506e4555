package hub

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// rootsKnownClient is a client with no session of its own, known by its
// roots once LearnRoots has asked for them (a 2026-07-28 client).
type rootsKnownClient struct {
	*fakeClient
	learned atomic.Bool
	fail    error // LearnRoots fails with it when set
}

func newRootsKnownClient(name string) *rootsKnownClient {
	return &rootsKnownClient{fakeClient: newFakeClient(name, allCapabilities())}
}

func (c *rootsKnownClient) Session() string {
	switch {
	case !c.caps.Roots:
		return "roots:none"
	case c.learned.Load():
		return "roots:" + c.fakeClient.session
	}
	return ""
}

func (c *rootsKnownClient) Sessionless() bool { return true }

func (c *rootsKnownClient) LearnRoots(context.Context) error {
	if c.fail != nil {
		return c.fail
	}
	if c.caps.Roots {
		c.learned.Store(true)
	}
	return nil
}

// TestClientKnownByItsRootsHoldsTheSharedSession: a server that first asks
// for roots during the call of a client known by its roots has that client
// learn them first, so that the shared session is held for those roots.
// Once the server uses roots, another such client is asked for its roots
// before its call and gets a session of its own; one that declared no
// roots gets a session never given any (not the shared one, which holds
// alice's); and one that cannot give its roots is refused.
func TestClientKnownByItsRootsHoldsTheSharedSession(t *testing.T) {
	spec, pidfile := faultySpec(t, "faulty", "ok")
	h := startHubWith(t, Options{}, spec)
	askRoots := json.RawMessage(`{"method":"roots/list"}`)
	alice := newRootsKnownClient("alice")
	if got := callText(t, h, WithClient(t.Context(), alice), "faulty__ask", askRoots); !strings.Contains(got, "file:///alice") {
		t.Fatalf("alice was given %q", got)
	}
	if alice.Session() != "roots:alice" {
		t.Fatalf("alice did not learn her roots before the shared session was given them")
	}
	bob := newRootsKnownClient("bob")
	for i, c := range []*rootsKnownClient{bob, alice, bob} {
		got := callText(t, h, WithClient(t.Context(), c), "faulty__ask", askRoots)
		if want := "file:///" + c.fakeClient.session; !strings.Contains(got, want) {
			t.Fatalf("call %d: %s was given %q", i, c.Session(), got)
		}
	}
	rootless := &rootsKnownClient{fakeClient: newFakeClient("rootless", ClientCapabilities{Sampling: true})}
	if got := callText(t, h, WithClient(t.Context(), rootless), "faulty__ask", askRoots); strings.Contains(got, "file:///") {
		t.Fatalf("a client that declared no roots was given %q", got)
	}
	if pids := readPids(t, pidfile); len(pids) != 3 {
		t.Fatalf("%d processes started, want 3 (the shared one held for alice's roots, bob's, the rootless one): %v", len(pids), pids)
	}
	mute := newRootsKnownClient("mute")
	mute.fail = errors.New("roots/list: the client did not answer")
	_, err := h.Call(WithClient(t.Context(), mute), "faulty__ask", askRoots, CallOptions{})
	if err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Fatalf("a client that gave no roots: %v, want its call refused with the reason", err)
	}
}

// TestSessionlessClientsShareNoRequests: calls in flight from two clients
// without a session, with the same name, are two clients: a server request
// nothing ties to one of them is refused, not given to either.
func TestSessionlessClientsShareNoRequests(t *testing.T) {
	a, b := newRootsKnownClient("same"), newRootsKnownClient("same")
	a.learned.Store(true)
	b.learned.Store(true)
	var calls activeCalls
	for _, c := range []*rootsKnownClient{a, b} {
		leave := calls.enter(WithClient(t.Context(), c))
		defer leave()
	}
	if _, _, err := calls.attribute(t.Context(), "s"); err == nil {
		t.Fatal("a request was attributed to one of two sessionless clients")
	}
	if mine, others, _ := calls.byClient("roots:same"); mine == nil || others != 1 {
		t.Fatalf("byClient: mine %v, others %d; want one call of the key and the other counted as another client's", mine, others)
	}
	owner := &sessionOwner{key: "roots:same"}
	if _, _, err := owner.requester(t.Context(), &calls, "s", "sampling/createMessage"); err == nil {
		t.Fatal("a session held for two sessionless clients gave a request to one of them")
	}
}
