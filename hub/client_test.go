package hub

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

func TestAttributeServerRequest(t *testing.T) {
	alice := newFakeClient("alice", allCapabilities())
	alice2 := newFakeClient("alice", allCapabilities()) // another call of the same session
	bob := newFakeClient("bob", allCapabilities())
	cases := []struct {
		name    string
		inCtx   ClientRequester   // carried by the request's own context
		calls   []ClientRequester // calls in flight; nil = a call no client made
		want    ClientRequester
		wantErr string
	}{
		{name: "the request's context names the client", inCtx: bob, calls: []ClientRequester{alice}, want: bob},
		{name: "the only call in flight", calls: []ClientRequester{alice}, want: alice},
		{name: "several calls of one session", calls: []ClientRequester{alice, alice2}, want: alice},
		{name: "no call in flight", wantErr: "outside any call"},
		{name: "calls from two clients", calls: []ClientRequester{alice, bob}, wantErr: "calls from 2 clients"},
		{name: "a call no client made", calls: []ClientRequester{nil}, wantErr: ErrNoClient.Error()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var calls activeCalls
			for _, c := range tc.calls {
				ctx := t.Context()
				if c != nil {
					ctx = WithClient(ctx, c)
				}
				defer calls.enter(ctx)()
			}
			ctx := t.Context()
			if tc.inCtx != nil {
				ctx = WithClient(ctx, tc.inCtx)
			}
			got, _, err := calls.attribute(ctx, "srv")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, %v; want an error containing %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got.Session() != tc.want.Session() {
				t.Fatalf("got %v, %v; want %s", got, err, tc.want.Session())
			}
		})
	}
}

// TestStdioServerRequestsReachTheCallingClient has a stdio server ask the
// client behind a call for sampling, elicitation and roots, and checks
// that a client without the capability is refused with a clear error the
// server sees.
func TestStdioServerRequestsReachTheCallingClient(t *testing.T) {
	spec, _ := faultySpec(t, "faulty", "ok")
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)
	cases := []struct {
		name      string
		client    ClientRequester
		method    string
		wantError bool
		want      string
	}{
		{"sampling", newFakeClient("alice", allCapabilities()), "sampling/createMessage", false, "sampled by alice"},
		{"elicitation", newFakeClient("alice", allCapabilities()), "elicitation/create", false, `"name":"alice"`},
		{"roots", newFakeClient("alice", allCapabilities()), "roots/list", false, "file:///alice"},
		{"client without sampling", newFakeClient("bob", ClientCapabilities{Roots: true}), "sampling/createMessage",
			true, "the calling client does not support sampling"},
		{"client without elicitation", newFakeClient("bob", ClientCapabilities{Sampling: true}), "elicitation/create",
			true, "the calling client does not support elicitation"},
		{"no client behind the call", nil, "roots/list", true, "no MCP client"},
		{"a method the hub does not answer", newFakeClient("alice", allCapabilities()), "tasks/get", true, "does not answer"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.client != nil {
				ctx = WithClient(ctx, tc.client)
			}
			args, _ := json.Marshal(map[string]any{"method": tc.method, "params": map[string]any{"messages": []any{}}})
			raw, err := d.Call(ctx, "ask", args, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := resultText(t, raw)
			if resultIsError(raw) != tc.wantError || !strings.Contains(text, tc.want) {
				t.Fatalf("result %s; want isError=%v and %q", raw, tc.wantError, tc.want)
			}
		})
	}
}

// TestStdioServerRequestFromSeveralClientsIsRefused: over stdio nothing ties
// a server's request to one of several calls in flight, so with calls from
// two clients it is refused rather than guessed.
func TestStdioServerRequestFromSeveralClientsIsRefused(t *testing.T) {
	spec, _ := faultySpec(t, "faulty", "ok")
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)

	alice := newFakeClient("alice", allCapabilities())
	hangCtx, cancelHang := context.WithCancel(WithClient(t.Context(), alice))
	hung := make(chan error, 1)
	go func() {
		_, err := d.Call(hangCtx, "hang", nil, nil)
		hung <- err
	}()
	waitUntil(t, "the first call to be in flight", func() bool { return d.calls.count() == 1 },
		func() string { return "it is not" })

	bob := newFakeClient("bob", allCapabilities())
	raw, err := d.Call(WithClient(t.Context(), bob), "ask", json.RawMessage(`{"method":"roots/list"}`), nil)
	cancelHang()
	<-hung
	if err != nil {
		t.Fatal(err)
	}
	if !resultIsError(raw) || !strings.Contains(resultText(t, raw), "cannot be attributed") {
		t.Fatalf("result %s; want a refusal", raw)
	}
	if len(alice.requests())+len(bob.requests()) != 0 {
		t.Fatalf("a client was asked: alice %v, bob %v", alice.requests(), bob.requests())
	}
}

// TestConcurrentClientsGetOnlyTheirOwnRequests has two clients call a tool
// that asks for input at once; neither answers until both were asked, and
// each must have been asked only its own question. Elicitation travels on
// the stream of the call that asked (mcp-go sends it there over HTTP), so
// it is attributed exactly.
func TestConcurrentClientsGetOnlyTheirOwnRequests(t *testing.T) {
	for name, spec := range askerSpecs(t) {
		t.Run(name, func(t *testing.T) {
			h := startHub(t, spec)
			gate := make(chan struct{})
			arrived := make(chan string, 2)
			clients := map[string]*fakeClient{}
			for _, session := range []string{"alice", "bob"} {
				c := newFakeClient(session, allCapabilities())
				c.gate, c.arrived = gate, arrived
				clients[session] = c
			}
			var wg sync.WaitGroup
			var mu sync.Mutex
			results := make(map[string]string, 2)
			for session, c := range clients {
				wg.Go(func() {
					args, _ := json.Marshal(map[string]string{"text": "question of " + session})
					text := callText(t, h, WithClient(t.Context(), c), "asker__elicit", args)
					mu.Lock()
					results[session] = text
					mu.Unlock()
				})
			}
			awaitArrivals(t, arrived, 2) // both asked while both calls were in flight
			close(gate)
			wg.Wait()
			for session, c := range clients {
				asked := c.requests()
				if len(asked) != 1 || !strings.Contains(asked[0], "question of "+session) {
					t.Errorf("%s was asked %v", session, asked)
				}
				if want := `accept {"name":"` + session + `"}`; results[session] != want {
					t.Errorf("%s's call returned %q, want %q", session, results[session], want)
				}
			}
		})
	}
}

// TestSamplingThroughEveryTransport: a single client is asked for a sample
// whether the server's request arrives with the call (in process) or on the
// server's standalone stream (mcp-go over HTTP), where the only call in
// flight decides.
func TestSamplingThroughEveryTransport(t *testing.T) {
	for name, spec := range askerSpecs(t) {
		t.Run(name, func(t *testing.T) {
			h := startHub(t, spec)
			alice := newFakeClient("alice", allCapabilities())
			got := callText(t, h, WithClient(t.Context(), alice), "asker__sample", json.RawMessage(`{"text":"hi"}`))
			if got != "sampled by alice" {
				t.Fatalf("sample = %q", got)
			}
			refused := callText(t, h, WithClient(t.Context(), newFakeClient("bob", ClientCapabilities{})),
				"asker__sample", json.RawMessage(`{"text":"hi"}`))
			if !strings.Contains(refused, "the calling client does not support sampling") {
				t.Fatalf("a client without sampling got %q", refused)
			}
		})
	}
}

// TestInProcessHandlerSeesTheCallingClient: a built-in provider's handler
// finds the client of the call in its context.
func TestInProcessHandlerSeesTheCallingClient(t *testing.T) {
	h := startHub(t, askerSpecs(t)["in-process"])
	cases := []struct {
		name   string
		client ClientRequester
		want   string
	}{
		{"with a client", newFakeClient("alice", allCapabilities()), "client alice"},
		{"without one", nil, "no client"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.client != nil {
				ctx = WithClient(ctx, tc.client)
			}
			res, err := h.Call(ctx, "asker__whoami", nil, CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := resultText(t, res.Raw); got != tc.want {
				t.Fatalf("handler saw %q, want %q", got, tc.want)
			}
		})
	}
}
