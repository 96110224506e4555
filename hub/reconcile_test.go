package hub

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/internal/testenv"
)

// publishLog is a hand-written Publisher keeping what was announced.
type publishLog struct {
	mu       sync.Mutex
	subjects map[events.Type][]string
}

func (p *publishLog) Publish(t events.Type, subject string, _ any) events.Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.subjects == nil {
		p.subjects = map[events.Type][]string{}
	}
	p.subjects[t] = append(p.subjects[t], subject)
	return events.Event{Type: t, Subject: subject}
}

func (p *publishLog) saw(t events.Type, subject string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Contains(p.subjects[t], subject)
}

// waitTool waits, on the hub's own change signal, until tool takes calls.
func waitTool(t *testing.T, h *Hub, tool string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if ok, err := h.WaitTool(ctx, tool); !ok || err != nil {
		t.Fatalf("%s never took calls (%v); servers %+v", tool, err, h.Servers())
	}
}

func echo(t *testing.T, h *Hub, tool, text string) {
	t.Helper()
	res, err := h.Call(t.Context(), tool, json.RawMessage(`{"text":`+mustJSON(text)+`}`), CallOptions{})
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	if got := resultText(t, res.Raw); got != text {
		t.Fatalf("call %s answered %q, want %q", tool, got, text)
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestApplyAddsRemovesRestartsAndLeavesTheRestAlone(t *testing.T) {
	keep, keepPids := faultySpec(t, "keep", "ok")
	edit, editPids := faultySpec(t, "edit", "ok")
	gone, gonePids := faultySpec(t, "gone", "ok")
	progressed := make(chan struct{}, 4)
	pub := &publishLog{}
	h, err := New([]ServerSpec{keep, edit, gone}, Options{
		Logger: slog.New(slog.DiscardHandler), CallTimeout: waitLimit, ConnectTimeout: waitLimit, Events: pub,
		OnNotification: func(server string, n mcpgo.JSONRPCNotification) {
			if server == "keep" && n.Method == "notifications/progress" {
				progressed <- struct{}{}
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Start(t.Context())
	for _, tool := range []string{"keep__echo", "edit__echo", "gone__echo"} {
		waitTool(t, h, tool)
	}
	keepPid := readPids(t, keepPids)

	// a call to the unchanged server is in flight while Apply runs
	inFlight := make(chan error, 1)
	go func() {
		_, err := h.Call(context.Background(), "keep__sleep", json.RawMessage(`{"ms":600}`),
			CallOptions{Meta: map[string]any{"progressToken": "p1"}})
		inFlight <- err
	}()
	<-progressed

	fresh, freshPids := faultySpec(t, "fresh", "ok")
	edited, editedPids := faultySpec(t, "edit", "ok")
	ch, err := h.Apply(t.Context(), []ServerSpec{keep, edited, fresh})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	want := Changes{Added: []string{"fresh"}, Removed: []string{"gone"}, Restarted: []string{"edit"}, Unchanged: []string{"keep"}}
	if !slices.Equal(ch.Added, want.Added) || !slices.Equal(ch.Removed, want.Removed) ||
		!slices.Equal(ch.Restarted, want.Restarted) || !slices.Equal(ch.Unchanged, want.Unchanged) {
		t.Fatalf("changes %+v, want %+v", ch, want)
	}
	if err := <-inFlight; err != nil {
		t.Fatalf("the call in flight on the unchanged server failed: %v", err)
	}

	waitTool(t, h, "fresh__echo")
	echo(t, h, "fresh__echo", "new")
	waitTool(t, h, "edit__echo")
	echo(t, h, "edit__echo", "edited")
	echo(t, h, "keep__echo", "kept")

	if got := readPids(t, keepPids); !slices.Equal(got, keepPid) || testenv.ProcessGone(keepPid[0]) {
		t.Fatalf("the unchanged server's processes went from %v to %v", keepPid, got)
	}
	assertProcessesGone(t, readPids(t, gonePids))
	assertProcessesGone(t, readPids(t, editPids))
	if n := len(readPids(t, editedPids)); n != 1 {
		t.Fatalf("the edited server started %d processes with its new args, want 1", n)
	}
	if n := len(readPids(t, freshPids)); n != 1 {
		t.Fatalf("the added server started %d processes, want 1", n)
	}
	if st := statusOf(h, "gone"); st.Name != "" {
		t.Fatalf("the removed server is still listed: %+v", st)
	}
	if _, ok := h.Snapshot().Lookup("gone__echo"); ok {
		t.Fatal("the removed server's tools are still in the catalog")
	}
	for _, name := range []string{"fresh", "gone", "edit"} {
		if !pub.saw(events.ServerChanged, name) {
			t.Errorf("no ServerChanged for %s", name)
		}
	}
	if !pub.saw(events.CatalogChanged, "") {
		t.Error("no CatalogChanged")
	}
	again, err := h.Apply(t.Context(), []ServerSpec{keep, edited, fresh})
	if err != nil || !again.Empty() {
		t.Fatalf("applying the same set again: %+v, %v", again, err)
	}
}

func TestApplyBeforeStartOnlyReplacesTheSpecs(t *testing.T) {
	spec, pidfile := faultySpec(t, "later", "ok")
	h, err := New(nil, Options{Logger: slog.New(slog.DiscardHandler), ConnectTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.Apply(t.Context(), []ServerSpec{spec}); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(h, "later"); st.State != StateStopped {
		t.Fatalf("before Start the added server is %q, want stopped", st.State)
	}
	h.Start(t.Context())
	waitTool(t, h, "later__echo")
	if n := len(readPids(t, pidfile)); n != 1 {
		t.Fatalf("%d processes, want 1", n)
	}
}

func TestApplyKeepsADisabledServerOff(t *testing.T) {
	spec, _ := faultySpec(t, "off", "ok")
	h, err := New([]ServerSpec{spec}, Options{Logger: slog.New(slog.DiscardHandler), ConnectTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Start(t.Context())
	waitTool(t, h, "off__echo")
	if err := h.SetEnabled(t.Context(), "off", false); err != nil {
		t.Fatal(err)
	}
	edited := spec
	edited.Args = append(slices.Clone(spec.Args), "-storm", "1")
	if _, err := h.Apply(t.Context(), []ServerSpec{edited}); err != nil {
		t.Fatal(err)
	}
	if st := statusOf(h, "off"); st.State != StateDisabled {
		t.Fatalf("an edited disabled server is %q, want disabled", st.State)
	}
}

func TestApplyRefuses(t *testing.T) {
	cases := []struct {
		name  string
		specs []ServerSpec
		close bool
	}{
		{name: "a nameless server", specs: []ServerSpec{{Transport: TransportStdio, Command: "x"}}},
		{name: "a name twice", specs: []ServerSpec{{Name: "a", Command: "x"}, {Name: "a", Command: "y"}}},
		{name: "a closed hub", specs: []ServerSpec{{Name: "a", Command: "x"}}, close: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, err := New(nil, Options{Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if tc.close {
				h.Close()
			}
			if _, err := h.Apply(t.Context(), tc.specs); err == nil {
				t.Fatal("Apply accepted it")
			}
			if len(h.Servers()) != 0 {
				t.Fatalf("a refused Apply changed the set: %+v", h.Servers())
			}
		})
	}
}

func TestSpecEqualSeesEveryField(t *testing.T) {
	base := ServerSpec{Name: "s", Transport: TransportStdio, Command: "c", Args: []string{"a"},
		Env: map[string]string{"K": "v"}, Locality: LocalityLocal, Timeout: time.Second}
	cases := []struct {
		name string
		edit func(*ServerSpec)
		same bool
	}{
		{name: "nothing", edit: func(*ServerSpec) {}, same: true},
		{name: "a copied slice", edit: func(s *ServerSpec) { s.Args = []string{"a"} }, same: true},
		{name: "args", edit: func(s *ServerSpec) { s.Args = []string{"b"} }},
		{name: "env value", edit: func(s *ServerSpec) { s.Env = map[string]string{"K": "w"} }},
		{name: "command", edit: func(s *ServerSpec) { s.Command = "d" }},
		{name: "url", edit: func(s *ServerSpec) { s.URL = "http://x" }},
		{name: "headers", edit: func(s *ServerSpec) { s.Headers = map[string]string{"A": "b"} }},
		{name: "locality", edit: func(s *ServerSpec) { s.Locality = LocalityRemote }},
		{name: "timeout", edit: func(s *ServerSpec) { s.Timeout = 2 * time.Second }},
		{name: "cost", edit: func(s *ServerSpec) { s.CostPerCall = 0.1 }},
		{name: "cost per second", edit: func(s *ServerSpec) { s.CostPerSecond = 0.001 }},
		{name: "disabled tools", edit: func(s *ServerSpec) { s.DisabledTools = []string{"x"} }},
		{name: "invalid", edit: func(s *ServerSpec) { s.Invalid = "bad" }},
		{name: "unprefixed", edit: func(s *ServerSpec) { s.Unprefixed = true }},
		{name: "cwd", edit: func(s *ServerSpec) { s.Cwd = "/tmp" }},
		{name: "oauth added", edit: func(s *ServerSpec) { s.OAuth = &OAuthSpec{ClientID: "a"} }},
	}
	withOAuth := base
	withOAuth.OAuth = &OAuthSpec{ClientID: "a", Scopes: []string{"read"}}
	same := withOAuth
	same.OAuth = &OAuthSpec{ClientID: "a", Scopes: []string{"read"}}
	if !specEqual(withOAuth, same) {
		t.Error("equal OAuth setups behind different pointers differ")
	}
	same.OAuth = &OAuthSpec{ClientID: "a", Scopes: []string{"write"}}
	if specEqual(withOAuth, same) {
		t.Error("a change of OAuth scopes went unseen")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			other := base
			other.Args = slices.Clone(base.Args)
			tc.edit(&other)
			if got := specEqual(base, other); got != tc.same {
				t.Fatalf("specEqual = %v, want %v", got, tc.same)
			}
		})
	}
}
