package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/testenv"
)

func TestStdioClientAnswersDownstreamRequests(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("asker", askingServer())), Options{})
	alice := &answeringClient{name: "alice"}
	withHandlers, _ := stdioClient(t, srv, mcpclient.WithSamplingHandler(alice), mcpclient.WithElicitationHandler(alice))
	tests := []struct {
		name   string
		client *mcpclient.Client
		tool   string
		want   string
	}{
		{"sampling", withHandlers, "asker__sample", "sampled by alice"},
		{"elicitation", withHandlers, "asker__elicit", `{"name":"alice"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := resultText(callTool(t, tc.client, tc.tool, map[string]any{"text": tc.name})); got != tc.want {
				t.Errorf("result %q, want %q", got, tc.want)
			}
		})
	}
	if asked := alice.questions(); len(asked) != 2 {
		t.Errorf("alice was asked %v, want both questions", asked)
	}
}

func TestStdioClientWithoutSamplingIsRefused(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("asker", askingServer())), Options{})
	c, _ := stdioClient(t, srv)
	got := resultText(callTool(t, c, "asker__sample", map[string]any{"text": "x"}))
	if !strings.Contains(got, "the calling client does not support sampling") {
		t.Errorf("result %q", got)
	}
}

func TestStdioNotificationsArriveBeforeTheResult(t *testing.T) {
	fix := newFixture()
	fix.drainStarts(t)
	relay := NewRelay()
	srv := testServer(t, testHub(t, relay, inProcess("fix", fix.srv)), Options{Relay: relay})
	n := &notes{}
	c, _ := stdioClient(t, srv)
	c.OnNotification(n.add)
	const steps = 5
	for i := range 40 {
		before := len(n.of("notifications/progress"))
		if _, err := callWithProgress(t.Context(), c, "fix__slow",
			map[string]any{"steps": steps, "delay_ms": 0, "label": "x"}, float64(i+1)); err != nil {
			t.Fatal(err)
		}
		if got := len(n.of("notifications/progress")) - before; got != steps {
			t.Fatalf("call %d: %d of %d progress notifications came before the result", i, got, steps)
		}
		logsBefore := len(n.of("notifications/message"))
		callTool(t, c, "fix__logs", map[string]any{"label": "x"})
		if got := len(n.of("notifications/message")) - logsBefore; got != 3 {
			t.Fatalf("call %d: %d of 3 log messages came before the result", i, got)
		}
	}
}

// rawStdio serves s over pipes and talks to it line by line.
type rawStdio struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan []byte
}

func newRawStdio(t *testing.T, s *Server) *rawStdio {
	t.Helper()
	return newRawStdioWith(t, s, `{}`)
}

// newRawStdioWith is newRawStdio for a client declaring caps (raw JSON).
func newRawStdioWith(t *testing.T, s *Server, caps string) *rawStdio {
	t.Helper()
	clientIn, serverOut := io.Pipe()
	serverIn, clientOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(t.Context(), serverIn, serverOut) }()
	r := &rawStdio{t: t, in: clientOut, lines: make(chan []byte, 100)}
	go func() {
		sc := bufio.NewScanner(clientIn)
		sc.Buffer(nil, 32<<20)
		for sc.Scan() {
			r.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(r.lines)
	}()
	t.Cleanup(func() {
		clientOut.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		serverOut.Close()
	})
	r.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"raw","version":"1"}}}`)
	r.response(`"init"`)
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return r
}

func (r *rawStdio) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatal(err)
	}
}

// message is a line the server wrote, with its parts kept raw.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// response reads lines until the response to id (raw JSON) and returns it
// with the ids of every other response read on the way.
func (r *rawStdio) response(id string) (message, []string) {
	r.t.Helper()
	var others []string
	m := r.readUntil("the response to "+id, func(m message) bool {
		if string(m.ID) == id {
			return true
		}
		if m.Method == "" {
			others = append(others, string(m.ID))
		}
		return false
	})
	return m, others
}

// readUntil reads lines until one is a message match takes, and returns
// it; it fails the test when stdout ends or waitLimit passes first.
func (r *rawStdio) readUntil(what string, match func(message) bool) message {
	r.t.Helper()
	timeout := time.After(waitLimit)
	for {
		select {
		case line, ok := <-r.lines:
			if !ok {
				r.t.Fatalf("the server closed stdout before %s", what)
			}
			var m message
			if err := json.Unmarshal(line, &m); err != nil {
				r.t.Fatalf("stdout carried %q: %v", line, err)
			}
			if match(m) {
				return m
			}
		case <-timeout:
			r.t.Fatalf("no %s", what)
		}
	}
}

// TestStdioShortPathAnswersAsMcpGoDoes calls catalog tools once on the short
// path and once with a _meta entry that sends the same call through mcp-go's
// request handling: the results must be byte for byte the same.
func TestStdioShortPathAnswersAsMcpGoDoes(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{})
	r := newRawStdio(t, srv)
	calls := []struct {
		name string
		args string
	}{
		{"fix__rich", `{}`},
		{"fix__echo", `{"message":"ünïcode \u2028 \"quoted\""}`},
		{"fix__fail", `{}`},
		{"fix__typed", `{"count":0}`},
		{"fix__typed", `{"count":2,"name":"n"}`},
		{"fix__big", `{"bytes":100000}`},
	}
	for i, c := range calls {
		t.Run(fmt.Sprint(c.name, i), func(t *testing.T) {
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, 2*i, c.name, c.args))
			short, _ := r.response(fmt.Sprint(2 * i))
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{"vendor/trace":"t"}}}`, 2*i+1, c.name, c.args))
			long, _ := r.response(fmt.Sprint(2*i + 1))
			if short.Error != nil || long.Error != nil {
				t.Fatalf("errors: %v / %v", short.Error, long.Error)
			}
			if !bytes.Equal(short.Result, long.Result) {
				t.Errorf("short path result\n%s\nmcp-go's\n%s", short.Result, long.Result)
			}
		})
	}
}

// TestStdioModernShortPathAnswersAsMcpGoDoes is the same for calls of
// protocol 2026-07-28, whose results mcp-go stamps with their type and the
// server's identity.
func TestStdioModernShortPathAnswersAsMcpGoDoes(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{Version: "1.2.3"})
	var viaMCPGo atomic.Int32
	srv.mcp.GetHooks().AddBeforeCallTool(func(context.Context, any, *mcpgo.CallToolRequest) { viaMCPGo.Add(1) })
	r := newRawStdio(t, srv)
	meta := `"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
		mcpgo.MetaKeyClientCapabilities + `":{},"` + mcpgo.MetaKeyClientInfo + `":{"name":"raw","version":"1"}`
	for i, c := range []struct{ name, args string }{
		{"fix__rich", `{}`},
		{"fix__echo", `{"message":"ünïcode \u2028 \"quoted\""}`},
		{"fix__fail", `{}`},
		{"fix__typed", `{"count":2,"name":"n"}`},
	} {
		t.Run(fmt.Sprint(c.name, i), func(t *testing.T) {
			before := viaMCPGo.Load()
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{%s}}}`, 2*i, c.name, c.args, meta))
			short, _ := r.response(fmt.Sprint(2 * i))
			if viaMCPGo.Load() != before {
				t.Error("the call went through mcp-go")
			}
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":{%s,"vendor/trace":"t"}}}`, 2*i+1, c.name, c.args, meta))
			long, _ := r.response(fmt.Sprint(2*i + 1))
			if viaMCPGo.Load() == before {
				t.Error("the call with a vendor key did not go through mcp-go")
			}
			if short.Error != nil || long.Error != nil {
				t.Fatalf("errors: %v / %v", short.Error, long.Error)
			}
			if !bytes.Equal(short.Result, long.Result) {
				t.Errorf("short path result\n%s\nmcp-go's\n%s", short.Result, long.Result)
			}
		})
	}
}

// TestStdioModernCallToolAnswersAsMcpGoDoes: with --expose search a
// 2026-07-28 client's call_tool also takes the short path, and answers as
// mcp-go's handling of it does; arguments handleCallTool refuses are left
// to mcp-go.
func TestStdioModernCallToolAnswersAsMcpGoDoes(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{Version: "1.2.3", Expose: ExposeSearch})
	var viaMCPGo atomic.Int32
	srv.mcp.GetHooks().AddBeforeCallTool(func(context.Context, any, *mcpgo.CallToolRequest) { viaMCPGo.Add(1) })
	r := newRawStdio(t, srv)
	meta := `"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
		mcpgo.MetaKeyClientCapabilities + `":{},"` + mcpgo.MetaKeyClientInfo + `":{"name":"raw","version":"1"}`
	for i, c := range []struct {
		name, args string
		short      bool
	}{
		{"echo", `{"name":"fix__echo","arguments":{"message":"ünïcode"}}`, true},
		{"fail", `{"name":"fix__fail"}`, true},
		{"unknown tool", `{"name":"fix__nosuch","arguments":{}}`, true},
		{"no name", `{"arguments":{}}`, false},
		{"arguments not an object", `{"name":"fix__echo","arguments":"hi"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := viaMCPGo.Load()
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"call_tool","arguments":%s,"_meta":{%s}}}`, 2*i, c.args, meta))
			short, _ := r.response(fmt.Sprint(2 * i))
			if went := viaMCPGo.Load() != before; went == c.short {
				t.Errorf("through mcp-go: %v, want %v", went, !c.short)
			}
			r.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"call_tool","arguments":%s,"_meta":{%s,"vendor/trace":"t"}}}`, 2*i+1, c.args, meta))
			long, _ := r.response(fmt.Sprint(2*i + 1))
			if short.Error != nil || long.Error != nil {
				t.Fatalf("errors: %v / %v", short.Error, long.Error)
			}
			if !bytes.Equal(short.Result, long.Result) {
				t.Errorf("short path result\n%s\nmcp-go's\n%s", short.Result, long.Result)
			}
		})
	}
}

func TestStdioBadInputGetsAnErrorAndTheConnectionGoesOn(t *testing.T) {
	srv := testServer(t, newFakeCatalog(), Options{MaxMessageBytes: 1 << 10})
	r := newRawStdio(t, srv)
	tests := []struct {
		name string
		line string
		id   string // of the error's response
		code int
		text string
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":`, "null", -32700, "parse error"},
		{"too large, its id first", `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", 2<<10) + `"}}`,
			"2", -32600, "message too large: toolhub accepts messages of at most 1024 bytes"},
		{"too large, its id last", `{"jsonrpc":"2.0","method":"ping","params":{"pad":"` + strings.Repeat("x", 200<<10) + `"},"id":"big"}`,
			`"big"`, -32600, "message too large"},
		{"an id with neither a method nor an answer", `{"jsonrpc":"2.0","id":3}`, "3", -32600, "invalid request"},
		{"a request with a null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", -32600, "never null"},
		{"a request with an object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "null", -32600, "a string or an integer"},
		{"params that are not an object", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1,2]}`, "4", -32602, "a JSON object"},
		{"an id past 2^53", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, "9007199254740993", -32600, "beyond ±2^53"},
		{"initialize without params", `{"jsonrpc":"2.0","id":5,"method":"initialize"}`, "5", -32602, "protocolVersion"},
		{"params of the wrong type", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":5}}`, "7", -32602, "unparsable tools/call request"},
		{"initialize in 2026-07-28, which removed it", `{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"_meta":{"` +
			mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` + mcpgo.MetaKeyClientCapabilities + `":{},"` +
			mcpgo.MetaKeyClientInfo + `":{"name":"c","version":"1"}}}}`, "6", -32601, ""},
		{"too large, no id to be found", `{"jsonrpc":"2.0","params":{"pad":"` + strings.Repeat("x", 20<<10) + `"},"method":"ping","id":` + strings.Repeat(" ", 5<<10) + `3}`,
			"null", -32600, "message too large"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r.send(tc.line)
			m, _ := r.response(tc.id)
			if m.Error == nil || m.Error.Code != tc.code || !strings.Contains(m.Error.Message, tc.text) {
				t.Errorf("got %+v, want code %d with %q", m.Error, tc.code, tc.text)
			}
			r.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			if m, _ := r.response(`"after"`); m.Error != nil {
				t.Errorf("ping after bad input: %+v", m.Error)
			}
		})
	}
}

func TestStdioCancelledCallGetsNoResponse(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{})
	r := newRawStdio(t, srv)
	r.send(`{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"fix__slow","arguments":{"steps":100000,"label":"c"}}}`)
	expectLabel(t, fix.started, "c", "start")
	r.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":77,"reason":"user"}}`)
	expectLabel(t, fix.cancelled, "c", "cancellation")
	r.send(`{"jsonrpc":"2.0","id":78,"method":"ping"}`)
	if _, others := r.response("78"); len(others) > 0 {
		t.Errorf("responses to %v came before the ping's; the cancelled call must get none", others)
	}
}

// TestStdioStopsWhenItsContextEnds: a signal ends toolhub serve while the
// client still holds stdin open; serving must end all the same.
func TestStdioStopsWhenItsContextEnds(t *testing.T) {
	srv := testServer(t, newFakeCatalog(), Options{})
	serverIn, clientOut := io.Pipe()
	defer clientOut.Close()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, serverIn, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("ServeStdio kept reading after its context ended")
	}
}

// TestStdioCancelRightBehindTheCall: a notifications/cancelled read right
// after its tools/call, before any worker has taken the call, still ends it.
func TestStdioCancelRightBehindTheCall(t *testing.T) {
	fix := newFixture()
	srv := testServer(t, testHub(t, nil, inProcess("fix", fix.srv)), Options{})
	out := &testenv.Buffer{}
	c := newStdioConn(srv, out, 1<<20)
	ctx := srv.mcp.WithContext(t.Context(), c.session)
	c.dispatch(ctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fix__slow","arguments":{"steps":100000,"label":"at-once"}}}`))
	c.dispatch(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`))
	c.spawned.Wait()
	select {
	case label := <-fix.started:
		if label != "at-once" {
			t.Fatalf("started %q", label)
		}
		expectLabel(t, fix.cancelled, "at-once", "cancellation")
	default: // cancelled before it reached the server
	}
	if lines := outputLines(out); len(lines) > 0 {
		t.Errorf("the cancelled call was answered: %s", lines)
	}
	c.calls.Range(func(id, _ any) bool {
		t.Errorf("call %s is still tracked after it ended", id)
		return true
	})
}
