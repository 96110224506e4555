package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// countedSpec runs command under /bin/sh, which appends its pid to the
// returned file before it becomes the server: one line per process the
// hub started.
func countedSpec(t *testing.T, name, command string, args ...string) (ServerSpec, string) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pids")
	return ServerSpec{
		Name: name, Transport: TransportStdio, Command: "/bin/sh",
		Args:     append([]string{"-c", `echo $$ >> "$0"; exec "$@"`, pidfile, command}, args...),
		Locality: LocalityLocal,
	}, pidfile
}

// startHubWith runs a hub with opts over specs until the test ends and
// waits for its servers to settle.
func startHubWith(t *testing.T, opts Options, specs ...ServerSpec) *Hub {
	t.Helper()
	opts.Logger = testOptions().Logger
	opts.ConnectTimeout, opts.CallTimeout = waitLimit, waitLimit
	h, err := New(specs, opts)
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	t.Cleanup(func() { _ = h.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := h.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	return h
}

// supervisor is the running downstream of the named server.
func supervisor(t *testing.T, h *Hub, name string) *downstream {
	t.Helper()
	m, ok := h.server(name)
	if !ok || m.ds == nil {
		t.Fatalf("server %s is not running", name)
	}
	return m.ds
}

// everythingHub runs server-everything over stdio, counting its processes,
// and waits until it has asked for roots: it does so right after
// initialization, outside any call, so nobody's roots are given and it
// says so on stderr.
func everythingHub(t *testing.T) (*Hub, *downstream, string) {
	t.Helper()
	spec, pidfile := countedSpec(t, "everything", npmBin(t, "mcp-server-everything"), "stdio")
	h := startHubWith(t, Options{}, spec)
	ds := supervisor(t, h, "everything")
	waitUntil(t, "server-everything to ask for roots", func() bool {
		return strings.Contains(ds.Status().StderrTail, "Failed to request roots")
	}, func() string { return fmt.Sprintf("status %+v", ds.Status()) })
	return h, ds, pidfile
}

// cachedRoots asks server-everything which roots it holds for the caller.
func cachedRoots(t *testing.T, h *Hub, c *fakeClient) string {
	t.Helper()
	return callText(t, h, WithClient(t.Context(), c), "everything__get-roots-list", json.RawMessage(`{}`))
}

// TestEachClientSeesOnlyItsOwnRoots: server-everything caches the first
// roots it is given; two clients calling it through one hub each get the
// roots they gave, through a child process of their own, which ends with
// the client's session and with the hub.
func TestEachClientSeesOnlyItsOwnRoots(t *testing.T) {
	h, ds, pidfile := everythingHub(t)
	alice := newFakeClient("alice", allCapabilities())
	bob := newFakeClient("bob", allCapabilities())
	steps := []struct {
		client      *fakeClient
		want, other string
	}{
		{alice, "file:///alice", "file:///bob"},
		{bob, "file:///bob", "file:///alice"},
		{alice, "file:///alice", "file:///bob"},
	}
	for i, step := range steps {
		got := cachedRoots(t, h, step.client)
		if !strings.Contains(got, step.want) || strings.Contains(got, step.other) {
			t.Fatalf("step %d: %s was told %q; want %s and not %s", i, step.client.session, got, step.want, step.other)
		}
	}
	pids := readPids(t, pidfile)
	if len(pids) != 3 {
		t.Fatalf("%d processes started, want 3 (the shared one and one per client): %v", len(pids), pids)
	}
	if n := ds.Status().ClientSessions; n != 2 {
		t.Fatalf("ClientSessions = %d, want 2", n)
	}

	h.ClientGone("alice")
	assertProcessesGone(t, pids[1:2]) // alice's, started on her first call
	if n := ds.Status().ClientSessions; n != 1 {
		t.Fatalf("ClientSessions = %d after alice left, want 1", n)
	}
	if got := cachedRoots(t, h, bob); !strings.Contains(got, "file:///bob") {
		t.Fatalf("bob was told %q after alice left", got)
	}
	_ = h.Close()
	assertProcessesGone(t, pids)
}

// TestRootsChangeReachesTheClientsOwnSession: a client's roots/list_changed
// is relayed to its own session, whose server then asks for the roots again
// and reports the new ones; the other client's session keeps its own.
func TestRootsChangeReachesTheClientsOwnSession(t *testing.T) {
	h, _, _ := everythingHub(t)
	alice := newFakeClient("alice", allCapabilities())
	bob := newFakeClient("bob", allCapabilities())
	for _, c := range []*fakeClient{alice, bob} {
		if got := cachedRoots(t, h, c); !strings.Contains(got, "file:///"+c.session) {
			t.Fatalf("%s was told %q", c.session, got)
		}
	}
	alice.setRoots("file:///alice/moved")
	h.RootsChanged(t.Context(), alice)
	var got string
	waitUntil(t, "alice's session to report her new roots", func() bool {
		got = cachedRoots(t, h, alice)
		return strings.Contains(got, "file:///alice/moved")
	}, func() string { return "it reports " + got })
	if got := cachedRoots(t, h, bob); !strings.Contains(got, "file:///bob") || strings.Contains(got, "alice") {
		t.Fatalf("bob was told %q after alice's roots changed", got)
	}
}

// TestServerThatNeverAsksForRootsKeepsOneSession: two clients calling a
// server that never asked for roots share its one process.
func TestServerThatNeverAsksForRootsKeepsOneSession(t *testing.T) {
	spec, pidfile := faultySpec(t, "faulty", "ok")
	h := startHubWith(t, Options{}, spec)
	for _, session := range []string{"alice", "bob", "alice"} {
		c := newFakeClient(session, allCapabilities())
		if got := callText(t, h, WithClient(t.Context(), c), "faulty__echo", json.RawMessage(`{"text":"hi"}`)); got != "hi" {
			t.Fatalf("%s's echo = %q", session, got)
		}
		h.RootsChanged(t.Context(), c)
	}
	if pids := readPids(t, pidfile); len(pids) != 1 {
		t.Fatalf("%d processes started, want 1: %v", len(pids), pids)
	}
	if n := supervisor(t, h, "faulty").Status().ClientSessions; n != 0 {
		t.Fatalf("ClientSessions = %d, want 0", n)
	}
}

// TestFirstRootsGivenDuringACallStayWithThatClient: a server that asks for
// roots only during a call is given the caller's on its shared session,
// which then stays that client's; the next client gets a session of its
// own.
func TestFirstRootsGivenDuringACallStayWithThatClient(t *testing.T) {
	spec, pidfile := faultySpec(t, "faulty", "ok")
	h := startHubWith(t, Options{}, spec)
	askRoots := json.RawMessage(`{"method":"roots/list"}`)
	for i, session := range []string{"alice", "bob", "alice", "bob"} {
		c := newFakeClient(session, allCapabilities())
		got := callText(t, h, WithClient(t.Context(), c), "faulty__ask", askRoots)
		if !strings.Contains(got, "file:///"+session) {
			t.Fatalf("call %d: %s was given %q", i, session, got)
		}
	}
	if pids := readPids(t, pidfile); len(pids) != 2 {
		t.Fatalf("%d processes started, want 2 (alice's shared one and bob's): %v", len(pids), pids)
	}
	anonymous := callText(t, h, t.Context(), "faulty__ask", askRoots)
	if !strings.Contains(anonymous, "no MCP client") {
		t.Fatalf("a call no client made was given %q", anonymous)
	}
}

// TestClientSessionsAreSupervisedCappedAndStopped uses a server declared to
// depend on its clients' roots: each client gets its own process from the
// first call; a crashed one is restarted; one client more than the cap is
// refused; an idle one is stopped; removing the server stops them all.
func TestClientSessionsAreSupervisedCappedAndStopped(t *testing.T) {
	spec, pidfile := faultySpec(t, "faulty", "ok")
	spec.ClientRoots = true
	h := startHubWith(t, Options{MaxClientSessions: 2, Restart: testOptions().Restart}, spec)
	ds := supervisor(t, h, "faulty")
	alice := WithClient(t.Context(), newFakeClient("alice", allCapabilities()))
	bob := WithClient(t.Context(), newFakeClient("bob", allCapabilities()))
	echo := json.RawMessage(`{"text":"hi"}`)

	if _, err := h.Call(alice, "faulty__crash", nil, CallOptions{}); err == nil {
		t.Fatal("the crashing call returned a result")
	}
	var got string
	waitUntil(t, "alice's session to be restarted", func() bool {
		got = callText(t, h, alice, "faulty__echo", echo)
		return got == "hi"
	}, func() string { return "her echo gave " + got })
	if got := callText(t, h, bob, "faulty__echo", echo); got != "hi" {
		t.Fatalf("bob's echo = %q", got)
	}
	if pids := readPids(t, pidfile); len(pids) != 4 {
		t.Fatalf("%d processes started, want 4 (shared, alice's twice, bob's): %v", len(pids), pids)
	}
	_, err := h.Call(WithClient(t.Context(), newFakeClient("carol", allCapabilities())), "faulty__echo", echo, CallOptions{})
	if full, ok := errors.AsType[*ClientSessionsFullError](err); !ok || full.Limit != 2 {
		t.Fatalf("a third client got %v, want a ClientSessionsFullError", err)
	}

	if _, err := h.Apply(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	assertProcessesGone(t, readPids(t, pidfile))
	if n := ds.Status().ClientSessions; n != 0 {
		t.Fatalf("ClientSessions = %d after the server was removed", n)
	}
}

// TestServerEntryCapsItsClientSessions: a server's own maxClientSessions
// replaces the hub's cap for that server, either way.
func TestServerEntryCapsItsClientSessions(t *testing.T) {
	for _, tc := range []struct {
		name           string
		hubCap, ownCap int
		want           int
	}{
		{"lower than the hub's", 3, 1, 1},
		{"higher than the hub's", 1, 2, 2},
		{"unset keeps the hub's", 1, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec, _ := faultySpec(t, "faulty", "ok")
			spec.ClientRoots = true
			spec.MaxClientSessions = tc.ownCap
			h := startHubWith(t, Options{MaxClientSessions: tc.hubCap, Restart: testOptions().Restart}, spec)
			echo := json.RawMessage(`{"text":"hi"}`)
			for i := range tc.want {
				client := WithClient(t.Context(), newFakeClient(fmt.Sprintf("client%d", i), allCapabilities()))
				if got := callText(t, h, client, "faulty__echo", echo); got != "hi" {
					t.Fatalf("client %d of %d: echo = %q", i+1, tc.want, got)
				}
			}
			_, err := h.Call(WithClient(t.Context(), newFakeClient("one-more", allCapabilities())), "faulty__echo", echo, CallOptions{})
			if full, ok := errors.AsType[*ClientSessionsFullError](err); !ok || full.Limit != tc.want {
				t.Fatalf("client %d got %v, want a ClientSessionsFullError with limit %d", tc.want+1, err, tc.want)
			}
		})
	}
}

// TestIdleClientSessionIsStopped: a client's own session that goes without
// a call for ClientSessionIdle is stopped, and the next call starts anew.
func TestIdleClientSessionIsStopped(t *testing.T) {
	spec, pidfile := faultySpec(t, "faulty", "ok")
	spec.ClientRoots = true
	h := startHubWith(t, Options{ClientSessionIdle: time.Millisecond}, spec)
	ds := supervisor(t, h, "faulty")
	alice := WithClient(t.Context(), newFakeClient("alice", allCapabilities()))
	if got := callText(t, h, alice, "faulty__echo", json.RawMessage(`{"text":"hi"}`)); got != "hi" {
		t.Fatalf("echo = %q", got)
	}
	pids := readPids(t, pidfile)
	if len(pids) != 2 {
		t.Fatalf("%d processes started, want 2: %v", len(pids), pids)
	}
	assertProcessesGone(t, pids[1:])
	waitUntil(t, "the idle session to leave the count", func() bool { return ds.Status().ClientSessions == 0 },
		func() string { return fmt.Sprintf("ClientSessions = %d", ds.Status().ClientSessions) })
	if got := callText(t, h, alice, "faulty__echo", json.RawMessage(`{"text":"again"}`)); got != "again" {
		t.Fatalf("echo after the idle stop = %q", got)
	}
}

// TestClientSessionOfAServerNotRunningIsUnavailable: a call that would need
// a client's own session of a server whose supervisor is not running is
// told the server is down.
func TestClientSessionOfAServerNotRunningIsUnavailable(t *testing.T) {
	d := newDownstream(ServerSpec{Name: "idle", Transport: TransportStdio, Command: "/bin/false", ClientRoots: true}, testOptions())
	ctx := WithClient(t.Context(), newFakeClient("alice", allCapabilities()))
	_, err := d.Call(ctx, "echo", nil, nil)
	if down, ok := errors.AsType[*ServerUnavailableError](err); !ok || down.State != StateStarting {
		t.Fatalf("got %v, want the server's own state", err)
	}
}
