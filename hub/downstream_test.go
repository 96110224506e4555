package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"github.com/mark3labs/mcp-go/server/servertest"
)

func TestDownstreamListsToolsRawAcrossPages(t *testing.T) {
	spec, _ := faultySpec(t, "faulty", "ok")
	spec.DisabledTools = []string{"crash", "hang"}
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)

	var names []string
	byName := map[string]RawTool{}
	for _, tool := range d.Tools() {
		names = append(names, tool.Name)
		byName[tool.Name] = tool
	}
	want := []string{"echo", "sleep", "big", "fail", "env", "cwd", "ask", "structured"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools over three pages, minus the disabled ones: got %v, want %v", names, want)
	}
	echoRaw := `{"name":"echo","description":"Echoes text.","inputSchema":{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","description":"What to echo.","properties":{"text":{"type":"string"}},"anyOf":[{"required":["text"]}]}}`
	if got := string(byName["echo"].Raw); got != echoRaw {
		t.Errorf("echo must be kept byte for byte:\n got %s\nwant %s", got, echoRaw)
	}
	if got := string(byName["structured"].OutputSchema); !strings.Contains(got, `"additionalProperties":false`) {
		t.Errorf("outputSchema lost detail: %s", got)
	}
	if st := d.Status(); st.Tools != len(want) || d.rec.loads() != 1 {
		t.Errorf("status counts %d tools after %d loads", st.Tools, d.rec.loads())
	}
}

func TestDownstreamCallResults(t *testing.T) {
	spec, _ := faultySpec(t, "faulty", "ok")
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)

	t.Run("tool error is a result", func(t *testing.T) {
		raw, err := d.Call(t.Context(), "fail", nil, nil)
		if err != nil {
			t.Fatalf("isError result returned a Go error: %v", err)
		}
		if !strings.Contains(string(raw), `"isError":true`) {
			t.Fatalf("raw result lost isError: %s", raw)
		}
	})
	t.Run("structured content passes unchanged", func(t *testing.T) {
		raw, err := d.Call(t.Context(), "structured", json.RawMessage(`{}`), nil)
		if err != nil || !strings.Contains(string(raw), `"structuredContent":{"sum":5}`) {
			t.Fatalf("got %s, %v", raw, err)
		}
	})
	t.Run("unknown tool is a remote error", func(t *testing.T) {
		_, err := d.Call(t.Context(), "nope", nil, nil)
		var remote *RemoteError
		if !errors.As(err, &remote) || remote.Code != mcpgo.INVALID_PARAMS || !errors.Is(err, mcpgo.ErrInvalidParams) {
			t.Fatalf("want *RemoteError for invalid params, got %T %v", err, err)
		}
		if d.Status().State != StateReady {
			t.Fatal("a JSON-RPC error must leave the server ready")
		}
	})
	t.Run("malformed arguments never reach the server", func(t *testing.T) {
		_, err := d.Call(t.Context(), "echo", json.RawMessage(`{"text":`), nil)
		if err == nil || !strings.Contains(err.Error(), "not valid JSON") {
			t.Fatalf("got %v", err)
		}
		if st := d.Status(); st.State != StateReady || st.Restarts != 0 {
			t.Fatalf("status: %+v", st)
		}
	})
	t.Run("meta and progress", func(t *testing.T) {
		meta := map[string]any{"progressToken": "tok-7"}
		raw, err := d.Call(t.Context(), "sleep", json.RawMessage(`{"ms":20}`), meta)
		if err != nil || resultText(t, raw) != "slept 20 ms" {
			t.Fatalf("got %s, %v", raw, err)
		}
		progress := 0
		for _, n := range d.rec.notifications() {
			if n.Method == "notifications/progress" && n.Params.AdditionalFields["progressToken"] == "tok-7" {
				progress++
			}
		}
		if progress != 2 {
			t.Fatalf("want 2 progress notifications for tok-7, got %d in %+v", progress, d.rec.notifications())
		}
	})
	t.Run("caller cancellation is not a timeout", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		_, err := d.Call(ctx, "hang", nil, nil)
		var timeout *CallTimeoutError
		if !errors.Is(err, context.DeadlineExceeded) || errors.As(err, &timeout) {
			t.Fatalf("want the caller's deadline error, got %T %v", err, err)
		}
		waitUntil(t, "notifications/cancelled", func() bool {
			return strings.Contains(d.Status().StderrTail, "cancelled request")
		}, func() string { return d.Status().StderrTail })
	})
}

func TestDownstreamChildEnvironment(t *testing.T) {
	t.Setenv("TOOLHUB_CANARY_SECRET", "leak")
	t.Setenv("LC_TIME", "C")
	dir := t.TempDir()
	spec, _ := faultySpec(t, "faulty", "ok")
	spec.Env = map[string]string{"VISIBLE": "yes"}
	spec.Cwd = dir
	d := runDownstream(t, spec, testOptions())
	d.waitState(t, StateReady)

	raw, err := d.Call(t.Context(), "env", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Split(resultText(t, raw), "\n")
	if slices.ContainsFunc(env, func(kv string) bool { return strings.Contains(kv, "leak") }) {
		t.Errorf("the hub's secret leaked into the child: %v", env)
	}
	wants := []string{"VISIBLE=yes", "PATH=" + os.Getenv("PATH")}
	if runtime.GOOS != "windows" { // the locale is not in the environment there
		wants = append(wants, "LC_TIME=C")
	}
	for _, want := range wants {
		if !slices.Contains(env, want) {
			t.Errorf("child env lacks %q: %v", want, env)
		}
	}

	raw, err = d.Call(t.Context(), "cwd", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantDir, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(resultText(t, raw)); got != wantDir {
		t.Errorf("child cwd %q, want %q", got, wantDir)
	}
}

func TestDownstreamUnavailableOutsideRun(t *testing.T) {
	spec, _ := faultySpec(t, "idle", "ok")
	d := newDownstream(spec, testOptions())

	_, err := d.Call(t.Context(), "echo", nil, nil)
	var unavailable *ServerUnavailableError
	if !errors.As(err, &unavailable) || unavailable.State != StateStarting || unavailable.Server != "idle" {
		t.Fatalf("before Run: got %v", err)
	}
	d.Stop()
	d.Run(t.Context()) // returns at once after Stop
	if _, err := d.Call(t.Context(), "echo", nil, nil); !errors.As(err, &unavailable) || unavailable.State != StateStopped {
		t.Fatalf("after Stop: got %v", err)
	}
}

// TestDownstreamStopIsSafeUnderCallerLocks: Stop may be called while the
// caller holds a lock its OnState callback takes, as a hub closing all its
// servers does.
func TestDownstreamStopIsSafeUnderCallerLocks(t *testing.T) {
	var mu sync.Mutex
	spec, pidfile := faultySpec(t, "locked", "ok")
	opts := testOptions()
	opts.OnState = func(ServerStatus) {
		mu.Lock()
		defer mu.Unlock()
	}
	d := newDownstream(spec, opts)
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(t.Context())
	}()
	waitUntil(t, "ready", func() bool { return d.Status().State == StateReady }, func() string { return "" })

	mu.Lock()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		d.Stop()
	}()
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("Stop waited for a callback")
	}
	mu.Unlock()
	<-done
	if st := d.Status(); st.State != StateStopped {
		t.Fatalf("state after Run returned: %s", st.State)
	}
	assertProcessesGone(t, readPids(t, pidfile))
}

// newTestMCPServer is an in-process server with a tool whose schema has
// top-level keywords, a tool of adjustable output size, and a tool that
// blocks until cancelled (reporting that on cancelled).
func newTestMCPServer(cancelled chan<- struct{}) *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("test", "1.0.0", mcpserver.WithToolCapabilities(true))
	schema := json.RawMessage(`{"type":"object","description":"Top-level text.","properties":{"text":{"type":"string"}},"anyOf":[{"required":["text"]}]}`)
	s.AddTool(mcpgo.NewToolWithRawSchema("echo", "Echoes.", schema),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("text", "")), nil
		})
	s.AddTool(mcpgo.NewToolWithRawSchema("big", "Large output.", json.RawMessage(`{"type":"object"}`)),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(strings.Repeat("y", req.GetInt("bytes", 0))), nil
		})
	s.AddTool(mcpgo.NewToolWithRawSchema("block", "Waits for cancellation.", json.RawMessage(`{"type":"object"}`)),
		func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			<-ctx.Done()
			select {
			case cancelled <- struct{}{}:
			default:
			}
			return nil, ctx.Err()
		})
	return s
}

func TestDownstreamTransports(t *testing.T) {
	cases := []struct {
		name string
		spec func(s *mcpserver.MCPServer, sawHeader *atomic.Bool) ServerSpec
		// Legacy SSE carries every response on one stream: a message over
		// the limit ends the stream, and the server is reconnected.
		oversizeReconnects bool
	}{
		{"in-process", func(s *mcpserver.MCPServer, sawHeader *atomic.Bool) ServerSpec {
			sawHeader.Store(true) // no headers in-process
			return ServerSpec{Name: "inproc", Transport: TransportInProcess, InProcess: s}
		}, false},
		{"streamable http", func(s *mcpserver.MCPServer, sawHeader *atomic.Bool) ServerSpec {
			ts := servertest.NewTestStreamableHTTPServer(s, mcpserver.WithHTTPContextFunc(recordHeader(sawHeader)))
			t.Cleanup(ts.Close)
			return ServerSpec{Name: "web", Transport: TransportHTTP, URL: ts.URL + "/mcp", Headers: map[string]string{"X-Test": "1"}}
		}, false},
		{"sse", func(s *mcpserver.MCPServer, sawHeader *atomic.Bool) ServerSpec {
			ts := servertest.NewTestServer(s, mcpserver.WithSSEContextFunc(recordHeader(sawHeader)))
			t.Cleanup(ts.Close)
			return ServerSpec{Name: "legacy", Transport: TransportSSE, URL: ts.URL + "/sse", Headers: map[string]string{"X-Test": "1"}}
		}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cancelled := make(chan struct{}, 1)
			s := newTestMCPServer(cancelled)
			var sawHeader atomic.Bool
			spec := tc.spec(s, &sawHeader)
			opts := testOptions()
			opts.MaxResultBytes = 64 << 10
			d := runDownstream(t, spec, opts)
			d.waitState(t, StateReady)
			checkTransportBehaviour(t, d, s, tc.oversizeReconnects)
			if !sawHeader.Load() {
				t.Error("the configured header never reached the server")
			}

			// A second connection with a short timeout, for a call that
			// never ends.
			spec.Timeout = 200 * time.Millisecond
			impatient := runDownstream(t, spec, opts)
			impatient.waitState(t, StateReady)
			checkTimeoutCancels(t, impatient, cancelled)
		})
	}
}

// recordHeader notes requests carrying the X-Test header.
func recordHeader(saw *atomic.Bool) func(context.Context, *http.Request) context.Context {
	return func(ctx context.Context, r *http.Request) context.Context {
		if r.Header.Get("X-Test") == "1" {
			saw.Store(true)
		}
		return ctx
	}
}

func checkTransportBehaviour(t *testing.T, d *runningDownstream, s *mcpserver.MCPServer, oversizeReconnects bool) {
	tools := d.Tools()
	echo := slices.IndexFunc(tools, func(r RawTool) bool { return r.Name == "echo" })
	if len(tools) != 3 || echo < 0 || !strings.Contains(string(tools[echo].InputSchema), `"anyOf"`) {
		t.Fatalf("tools listed: %+v", tools)
	}
	raw, err := d.Call(t.Context(), "echo", json.RawMessage(`{"text":"hi"}`), nil)
	if err != nil || resultText(t, raw) != "hi" {
		t.Fatalf("echo: %s, %v", raw, err)
	}

	restarts := 0
	_, err = d.Call(t.Context(), "big", json.RawMessage(`{"bytes":100000}`), nil)
	var tooLarge *ResultTooLargeError
	switch {
	case oversizeReconnects:
		if !errors.Is(err, errResponseTooLarge) {
			t.Fatalf("100 kB message over a 64 KiB limit: got %T %v", err, err)
		}
		restarts = 1
		waitUntil(t, "the reconnection", func() bool {
			st := d.Status()
			return st.State == StateReady && st.Restarts == 1
		}, func() string { return "" })
	case !errors.As(err, &tooLarge) || tooLarge.Limit != 64<<10:
		t.Fatalf("100 kB result over a 64 KiB limit: got %T %v", err, err)
	}

	// A tool added at run time arrives through tools/list_changed.
	s.AddTool(mcpgo.NewToolWithRawSchema("late", "Added later.", json.RawMessage(`{"type":"object"}`)),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("late"), nil
		})
	waitUntil(t, "the late tool", func() bool {
		return slices.ContainsFunc(d.Tools(), func(r RawTool) bool { return r.Name == "late" })
	}, func() string { return "" })

	if st := d.Status(); st.State != StateReady || st.Restarts != restarts {
		t.Fatalf("status after the checks: %+v", st)
	}
}

func checkTimeoutCancels(t *testing.T, d *runningDownstream, cancelled chan struct{}) {
	_, err := d.Call(t.Context(), "block", nil, nil)
	var timeout *CallTimeoutError
	if !errors.As(err, &timeout) {
		t.Fatalf("blocked call: want *CallTimeoutError, got %T %v", err, err)
	}
	select {
	case <-cancelled:
	case <-time.After(waitLimit):
		t.Fatal("the server never saw the call cancelled")
	}
	if st := d.Status(); st.State != StateReady {
		t.Fatalf("a timeout must leave the server ready: %+v", st)
	}
}

func TestDownstreamRemoteConnectFailureKeepsRetrying(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/mcp"
	l.Close()        // nothing listens there now
	const tries = 12 // far more than the five a stdio server gets
	enough := make(chan struct{})
	sleeper := &fakeSleeper{onWait: func(n int) {
		if n == tries {
			close(enough)
		}
	}}
	opts := testOptions()
	opts.Sleep = func(ctx context.Context, d time.Duration) bool {
		select {
		case <-enough:
			<-ctx.Done() // hold the server in retrying
			return false
		default:
		}
		return sleeper.Sleep(ctx, d)
	}
	d := runDownstream(t, ServerSpec{Name: "gone", Transport: TransportHTTP, URL: url}, opts)
	<-enough
	st := d.waitState(t, StateRetrying)
	if !strings.Contains(st.LastError, "refused") || st.NextRetry.IsZero() || st.Restarts < tries {
		t.Fatalf("status after %d tries: %+v", tries, st)
	}
	if d.rec.sawState(StateFailed, "") {
		t.Fatal("a remote server gave up")
	}
}

func TestDownstreamServerWithoutTools(t *testing.T) {
	s := mcpserver.NewMCPServer("resources-only", "1.0.0", mcpserver.WithResourceCapabilities(false, false))
	d := runDownstream(t, ServerSpec{Name: "docs", Transport: TransportInProcess, InProcess: s}, testOptions())
	if st := d.waitState(t, StateReady); st.Tools != 0 || len(d.Tools()) != 0 {
		t.Fatalf("a server without tools: %+v", st)
	}
}

func TestFailureReason(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"no error", nil, "connection ended"},
		{"kept as it is", errors.New("initialize: exit status 3"), "initialize: exit status 3"},
		{"a repeated step once", fmt.Errorf("initialize: %w", errors.New(`transport error: failed to send request: failed to send request: Post "http://127.0.0.1:1/mcp": dial tcp 127.0.0.1:1: connect: connection refused`)),
			`initialize: transport error: failed to send request: Post "http://127.0.0.1:1/mcp": dial tcp 127.0.0.1:1: connect: connection refused`},
		{"only neighbours", errors.New("a: b: a: b"), "a: b: a: b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := failureReason(tc.err); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
