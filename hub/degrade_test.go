package hub

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// gatedServer is an MCP server over HTTP that answers 503 to everything
// until open is called.
type gatedServer struct {
	*httptest.Server
	open    atomic.Bool
	refused atomic.Int64
}

func newGatedServer(t *testing.T) *gatedServer {
	t.Helper()
	srv := mcpserver.NewMCPServer("late", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("ping"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("pong"), nil
	})
	mcpHandler := mcpserver.NewStreamableHTTPServer(srv)
	g := &gatedServer{}
	g.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.open.Load() {
			g.refused.Add(1)
			http.Error(w, "not up yet", http.StatusServiceUnavailable)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	t.Cleanup(g.Close)
	return g
}

// fakeSleeper stands in for the wait between tries: it records each delay
// and returns at once, running onWait first.
type fakeSleeper struct {
	mu     sync.Mutex
	delays []time.Duration
	onWait func(n int) // n: waits so far, this one included
}

func (f *fakeSleeper) Sleep(ctx context.Context, d time.Duration) bool {
	f.mu.Lock()
	f.delays = append(f.delays, d)
	n := len(f.delays)
	f.mu.Unlock()
	if f.onWait != nil {
		f.onWait(n)
	}
	return ctx.Err() == nil
}

func (f *fakeSleeper) waits() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.delays...)
}

func TestRemoteServerDownAtStartIsUsedOnceUp(t *testing.T) {
	const triesBeforeUp = 8 // more than the five a stdio server gets
	gate := newGatedServer(t)
	sleeper := &fakeSleeper{onWait: func(n int) {
		if n == triesBeforeUp {
			gate.open.Store(true)
		}
	}}
	spec := ServerSpec{Name: "late", Transport: TransportHTTP, URL: gate.URL, Locality: LocalityLocal}
	h, err := New([]ServerSpec{spec}, Options{
		Logger: slog.New(slog.DiscardHandler), CallTimeout: waitLimit, ConnectTimeout: waitLimit,
		Retry: RetryPolicy{BaseDelay: time.Second, MaxDelay: 4 * time.Second},
		Sleep: sleeper.Sleep,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Start(t.Context())

	waitUntil(t, "the late server ready", func() bool { return statusOf(h, "late").State == StateReady },
		func() string { return statusOf(h, "late").Detail() })
	res, err := h.Call(t.Context(), "late__ping", nil, CallOptions{})
	if err != nil || !strings.Contains(resultText(t, res.Raw), "pong") {
		t.Fatalf("call once up: %v", err)
	}
	if got := gate.refused.Load(); got < triesBeforeUp {
		t.Errorf("the server refused %d requests, want at least %d tries", got, triesBeforeUp)
	}
	waits := sleeper.waits()
	if len(waits) != triesBeforeUp {
		t.Fatalf("waited %d times, want %d", len(waits), triesBeforeUp)
	}
	for i, d := range waits {
		ceiling := min(time.Second<<i, 4*time.Second)
		if d < ceiling/2 || d > ceiling {
			t.Errorf("wait %d: %s, want between %s and %s", i+1, d, ceiling/2, ceiling)
		}
	}
	if st := statusOf(h, "late"); st.Restarts != triesBeforeUp || st.LastError != "" || !st.NextRetry.IsZero() {
		t.Errorf("status once up: %+v", st)
	}
}

func TestRetryingServerStatusSaysWhenAndWhy(t *testing.T) {
	gate := newGatedServer(t)
	waiting := make(chan struct{})
	var once sync.Once
	block := func(ctx context.Context, _ time.Duration) bool {
		once.Do(func() { close(waiting) })
		<-ctx.Done()
		return false
	}
	spec := ServerSpec{Name: "late", Transport: TransportHTTP, URL: gate.URL}
	h, err := New([]ServerSpec{spec}, Options{Logger: slog.New(slog.DiscardHandler), ConnectTimeout: waitLimit, Sleep: block})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Start(t.Context())
	<-waiting
	st := statusOf(h, "late")
	if st.State != StateRetrying || st.NextRetry.IsZero() || st.LastError == "" {
		t.Fatalf("status while retrying: %+v", st)
	}
	if d := st.Detail(); !strings.HasPrefix(d, "retrying in 1 s: ") || !strings.Contains(d, st.LastError) {
		t.Errorf("detail %q, want the wait and the reason", d)
	}
	if !h.settled() {
		t.Error("a retrying server keeps WaitSettled waiting")
	}
}

func TestCallOfDownServerNamesStateAndReason(t *testing.T) {
	gate := newGatedServer(t)
	waiting := make(chan struct{})
	var once sync.Once
	block := func(ctx context.Context, _ time.Duration) bool {
		once.Do(func() { close(waiting) })
		<-ctx.Done()
		return false
	}
	specs := []ServerSpec{
		{Name: "bad", Transport: TransportStdio, Command: "x", Invalid: `c.json:2:91: server "bad": env.KEY: "${input:token}" is not a variable reference`},
		{Name: "late", Transport: TransportHTTP, URL: gate.URL},
	}
	h, err := New(specs, Options{Logger: slog.New(slog.DiscardHandler), ConnectTimeout: waitLimit, Sleep: block})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.Start(t.Context())
	<-waiting

	cases := []struct {
		name      string
		tool      string
		wantState ServerState
		wantText  []string
	}{
		{"invalid entry", "bad__anything", StateInvalid, []string{"server bad is invalid", "c.json:2:91", "not a variable reference"}},
		{"unreachable remote", "late__ping", StateRetrying, []string{"server late is retrying in 1 s", "503"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.Call(t.Context(), tc.tool, nil, CallOptions{})
			unavailable, ok := errors.AsType[*ServerUnavailableError](err)
			if !ok {
				t.Fatalf("got %v, want *ServerUnavailableError", err)
			}
			if unavailable.State != tc.wantState {
				t.Errorf("state %s, want %s", unavailable.State, tc.wantState)
			}
			for _, want := range tc.wantText {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
	if _, err := h.Call(t.Context(), "nobody__ping", nil, CallOptions{}); !errors.As(err, new(*UnknownToolError)) {
		t.Errorf("a tool of no server: got %v, want *UnknownToolError", err)
	}
	if st := statusOf(h, "bad"); st.State != StateInvalid || !strings.Contains(st.LastError, "c.json:2:91") {
		t.Errorf("invalid server status: %+v", st)
	}
	if err := h.SetEnabled(t.Context(), "bad", true); err == nil || !strings.Contains(err.Error(), "cannot be used") {
		t.Errorf("enabling an invalid server: %v", err)
	}
}
