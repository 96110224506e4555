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
	if c.learned.Load() {
		return "roots:" + c.fakeClient.session
	}
	return ""
}

func (c *rootsKnownClient) LearnRoots(context.Context) error {
	if c.fail != nil {
		return c.fail
	}
	c.learned.Store(true)
	return nil
}

// TestClientKnownByItsRootsHoldsTheSharedSession: a server that first asks
// for roots during the call of a client known by its roots has that client
// learn them first, so that the shared session is held for those roots;
// another such client, whose roots are known before its call, gets a
// session of its own, and one that gives no roots is refused.
func TestClientKnownByItsRootsHoldsTheSharedSession(t *testing.T) {
	spec, pidfile := faultySpec(t, "faulty", "ok")
	h := startHubWith(t, Options{}, spec)
	askRoots := json.RawMessage(`{"method":"roots/list"}`)
	if h.UsesRoots("faulty") {
		t.Fatal("UsesRoots before the server asked for roots")
	}
	alice := newRootsKnownClient("alice")
	if got := callText(t, h, WithClient(t.Context(), alice), "faulty__ask", askRoots); !strings.Contains(got, "file:///alice") {
		t.Fatalf("alice was given %q", got)
	}
	if alice.Session() != "roots:alice" {
		t.Fatalf("alice did not learn her roots before the shared session was given them")
	}
	if !h.UsesRoots("faulty") {
		t.Fatal("UsesRoots is false after the server asked for roots")
	}
	bob := newRootsKnownClient("bob")
	bob.learned.Store(true)
	for i, c := range []*rootsKnownClient{bob, alice, bob} {
		got := callText(t, h, WithClient(t.Context(), c), "faulty__ask", askRoots)
		if want := "file:///" + c.fakeClient.session; !strings.Contains(got, want) {
			t.Fatalf("call %d: %s was given %q", i, c.Session(), got)
		}
	}
	if pids := readPids(t, pidfile); len(pids) != 2 {
		t.Fatalf("%d processes started, want 2 (the shared one held for alice's roots, and bob's): %v", len(pids), pids)
	}
	mute := newRootsKnownClient("mute")
	mute.fail = errors.New("roots/list: the client did not answer")
	if got := callText(t, h, WithClient(t.Context(), mute), "faulty__ask", askRoots); strings.Contains(got, "file:///") {
		t.Fatalf("a client that gave no roots was given %q", got)
	}
}
