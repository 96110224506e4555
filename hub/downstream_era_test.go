package hub

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/internal/testenv"
)

func modernSpec(t *testing.T, protocol Protocol) ServerSpec {
	return ServerSpec{Name: "modern", Transport: TransportStdio, Command: modernBuild.binary(t),
		Locality: LocalityLocal, Protocol: protocol}
}

// modernHTTPSpec runs modernserver over Streamable HTTP, as a child process
// of the test, and names its URL.
func modernHTTPSpec(t *testing.T, protocol Protocol, flags ...string) ServerSpec {
	url, _ := startModernHTTP(t, "127.0.0.1:0", flags...)
	return ServerSpec{Name: "modern", Transport: TransportHTTP, URL: url, Locality: LocalityLocal, Protocol: protocol}
}

// startModernHTTP runs modernserver over Streamable HTTP on addr and
// returns its URL and a function that stops it (also run at cleanup).
func startModernHTTP(t *testing.T, addr string, flags ...string) (string, func()) {
	cmd := exec.Command(modernBuild.binary(t), append([]string{"-http", addr}, flags...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		})
	}
	t.Cleanup(stop)
	url, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("modernserver -http printed no URL: %v", err)
	}
	return strings.TrimSpace(url), stop
}

// eachModernTransport runs f against modernserver over stdio and over
// Streamable HTTP.
func eachModernTransport(t *testing.T, protocol Protocol, f func(t *testing.T, spec ServerSpec)) {
	for _, transport := range []Transport{TransportStdio, TransportHTTP} {
		t.Run(string(transport), func(t *testing.T) {
			if transport == TransportHTTP {
				f(t, modernHTTPSpec(t, protocol))
				return
			}
			f(t, modernSpec(t, protocol))
		})
	}
}

// TestDownstreamEraIsNegotiated: a stdio server that answers
// server/discover is spoken to in 2026-07-28, every request carrying the
// _meta that era needs (mcp-go refuses requests without it); "protocol":
// "2025-11-25" keeps the same server on the handshake; a server of the
// older protocol only falls back to it.
func TestDownstreamEraIsNegotiated(t *testing.T) {
	old, _ := faultySpec(t, "old", "ok")
	lenient, _ := faultySpec(t, "old", "lenient")
	cases := []struct {
		name string
		spec func(t *testing.T) ServerSpec
		tool string
		want string
	}{
		{"a current server", func(t *testing.T) ServerSpec { return modernSpec(t, "") },
			"modern__echo", mcpgo.ProtocolVersion20260728},
		{"a current server pinned to the handshake", func(t *testing.T) ServerSpec { return modernSpec(t, ProtocolLegacy) },
			"modern__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"a current server over HTTP", func(t *testing.T) ServerSpec { return modernHTTPSpec(t, "") },
			"modern__echo", mcpgo.ProtocolVersion20260728},
		{"a current server over HTTP pinned to the handshake", func(t *testing.T) ServerSpec { return modernHTTPSpec(t, ProtocolLegacy) },
			"modern__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"a server of the older protocol", func(*testing.T) ServerSpec { return old },
			"old__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"a server of the older protocol that answers server/discover with {}", func(*testing.T) ServerSpec { return lenient },
			"old__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"an HTTP server of the older protocol", func(t *testing.T) ServerSpec { return modernHTTPSpec(t, "", "-older") },
			"modern__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"an HTTP server of the older protocol that answers server/discover with {}", func(t *testing.T) ServerSpec {
			return modernHTTPSpec(t, "", "-lenient")
		}, "modern__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"a current HTTP server that keeps no sessions", func(t *testing.T) ServerSpec { return modernHTTPSpec(t, "", "-stateless") },
			"modern__echo", mcpgo.ProtocolVersion20260728},
		{"an HTTP server of the older protocol that keeps no sessions", func(t *testing.T) ServerSpec {
			return modernHTTPSpec(t, "", "-stateless", "-older")
		}, "modern__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec := tc.spec(t)
			h := startHub(t, spec)
			conn, _ := supervisor(t, h, spec.Name).currentConn()
			if conn == nil {
				t.Fatalf("no connection; servers %+v", h.Servers())
			}
			if conn.era.version != tc.want {
				t.Fatalf("negotiated %q, want %q", conn.era.version, tc.want)
			}
			res, err := h.Call(t.Context(), tc.tool, json.RawMessage(`{"text":"hi"}`), CallOptions{})
			if err != nil {
				t.Fatalf("call %s: %v", tc.tool, err)
			}
			if res.IsError {
				t.Fatalf("call %s: %s", tc.tool, res.Raw)
			}
		})
	}
}

// TestCurrentHTTPDownstreamGetsRoutingHeaders: over HTTP a 2026-07-28
// server refuses a request whose Mcp-Method, Mcp-Name or Mcp-Param-*
// headers are missing or disagree with its body; modernserver's locate
// binds its region argument to a header.
func TestCurrentHTTPDownstreamGetsRoutingHeaders(t *testing.T) {
	h := startHub(t, modernHTTPSpec(t, ""))
	for _, region := range []string{"eu-west", "ünïcode région"} {
		args, _ := json.Marshal(map[string]string{"region": region})
		res, err := h.Call(t.Context(), "modern__locate", args, CallOptions{})
		if err != nil {
			t.Fatalf("locate %q: %v", region, err)
		}
		if res.IsError {
			t.Fatalf("locate %q: %s", region, res.Raw)
		}
		if got := resultText(t, res.Raw); got != "region "+region {
			t.Fatalf("locate %q = %q", region, got)
		}
	}
	if _, err := h.Call(t.Context(), "modern__locate", nil, CallOptions{}); err != nil {
		t.Fatalf("locate without its argument: %v", err)
	}
}

// TestCurrentDownstreamAsksTheCallingClient: a 2026-07-28 server's
// InputRequiredResult (a name, then a sample) is answered by the calling
// client, as sampling and elicitation requests of the older protocol are,
// and the call is retried with the answers until it completes.
func TestCurrentDownstreamAsksTheCallingClient(t *testing.T) {
	eachModernTransport(t, "", testCurrentDownstreamAsks)
}

func testCurrentDownstreamAsks(t *testing.T, spec ServerSpec) {
	h := startHub(t, spec)
	client := newFakeClient("dana", allCapabilities())
	res, err := h.Call(WithClient(t.Context(), client), "modern__confirm", nil, CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, res.Raw); got != "confirmed dana with sampled by dana" {
		t.Fatalf("result %q", got)
	}
	asked := client.requests()
	if len(asked) != 2 || !strings.HasPrefix(asked[0], "elicitation/create") || !strings.HasPrefix(asked[1], "sampling/createMessage") {
		t.Fatalf("the client was asked %q", asked)
	}

	// A client that cannot answer: the call ends with an isError result
	// saying so, not a Go error.
	mute := newFakeClient("mute", ClientCapabilities{})
	res, err = h.Call(WithClient(t.Context(), mute), "modern__confirm", nil, CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.Contains(resultText(t, res.Raw), "does not support elicitation") {
		t.Fatalf("a client without elicitation got %s", res.Raw)
	}
}

// TestCurrentDownstreamListChangesArrive: a 2026-07-28 server sends
// list_changed only on a subscriptions/listen stream; the hub opens one
// and follows the change into the catalog.
func TestCurrentDownstreamListChangesArrive(t *testing.T) {
	// Pinned to the handshake, over HTTP the change comes on the GET
	// stream of the older protocol instead.
	for _, protocol := range []Protocol{"", ProtocolLegacy} {
		t.Run("protocol "+string(protocol), func(t *testing.T) {
			eachModernTransport(t, protocol, testListChangesArrive)
		})
	}
	// A server that does not know server/discover: the hub falls back to
	// the handshake and opens the GET stream after all.
	t.Run("an HTTP server of the older protocol", func(t *testing.T) {
		testListChangesArrive(t, modernHTTPSpec(t, "", "-older"))
	})
	t.Run("a current HTTP server that keeps no sessions", func(t *testing.T) {
		testListChangesArrive(t, modernHTTPSpec(t, "", "-stateless"))
	})
	t.Run("an HTTP server of the older protocol that answers server/discover with {}", func(t *testing.T) {
		testListChangesArrive(t, modernHTTPSpec(t, "", "-lenient"))
	})
}

func testListChangesArrive(t *testing.T, spec ServerSpec) {
	testListChangesOn(t, startHub(t, spec))
}

func testListChangesOn(t *testing.T, h *Hub) {
	grown := make(chan struct{})
	var once sync.Once
	stop := h.WatchCatalog(func(s *Snapshot) {
		if _, ok := s.Lookup("modern__grown"); ok {
			once.Do(func() { close(grown) })
		}
	})
	defer stop()
	if _, err := h.Call(t.Context(), "modern__grow", nil, CallOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-grown:
	case <-time.After(waitLimit):
		t.Fatalf("modern__grown never reached the catalog; servers %+v", h.Servers())
	}
}

// TestCurrentDownstreamResourceUpdatesArrive: a subscription to a
// resource of a 2026-07-28 server joins the filter of the hub's
// subscriptions/listen stream (the server has no resources/subscribe), its
// resources/updated reaches Options.OnNotification, and after the last
// unsubscribe the server has no subscriber left. Pinned to the handshake,
// the same goes through resources/subscribe.
func TestCurrentDownstreamResourceUpdatesArrive(t *testing.T) {
	for _, protocol := range []Protocol{"", ProtocolLegacy} {
		t.Run("protocol "+string(protocol), func(t *testing.T) {
			eachModernTransport(t, protocol, testResourceUpdatesArrive)
		})
	}
	t.Run("a current HTTP server that keeps no sessions", func(t *testing.T) {
		testResourceUpdatesArrive(t, modernHTTPSpec(t, "", "-stateless"))
	})
}

func testResourceUpdatesArrive(t *testing.T, spec ServerSpec) {
	const uri = "modern://note"
	updated := make(chan string, 8)
	h := startHubWith(t, Options{OnNotification: func(_ string, n mcpgo.JSONRPCNotification) {
		if n.Method == mcpgo.MethodNotificationResourceUpdated {
			u, _ := n.Params.AdditionalFields["uri"].(string)
			updated <- u
		}
	}}, spec)
	waitUntil(t, "resources listed", func() bool { return len(h.Resources()) > 0 }, func() string { return "none" })
	touch := func() string { return callText(t, h, t.Context(), "modern__touch", nil) }
	if got := touch(); got != "notified 0" {
		t.Fatalf("before any subscription: %q", got)
	}
	for range 2 { // two subscribers, one downstream subscription
		if err := h.SubscribeResource(t.Context(), uri); err != nil {
			t.Fatal(err)
		}
	}
	if got := touch(); got != "notified 1" {
		t.Fatalf("subscribed: %q", got)
	}
	select {
	case got := <-updated:
		if got != uri {
			t.Fatalf("updated %q", got)
		}
	case <-time.After(waitLimit):
		t.Fatal("resources/updated never arrived")
	}
	for range 2 {
		if err := h.UnsubscribeResource(t.Context(), uri); err != nil {
			t.Fatal(err)
		}
	}
	// The stream that named the URI ends once its successor is open; the
	// server notices the end a moment later.
	last := ""
	waitUntil(t, "no subscriber left", func() bool { last = touch(); return last == "notified 0" },
		func() string { return "touch says " + last })
}

// TestCurrentHTTPServerWithoutTools: over HTTP a 2026-07-28 server answers
// tools/list of a server without tools with "method not found" and status
// 404, which is neither the end of a session (there are none) nor a
// failure: the server is ready with no tools and its resources listed.
func TestCurrentHTTPServerWithoutTools(t *testing.T) {
	srv := mcpserver.NewMCPServer("notes", "1", mcpserver.WithResourceCapabilities(false, true))
	srv.AddResource(mcpgo.NewResource("notes://one", "one"), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "notes://one", Text: "first"}}, nil
	})
	ts := httptest.NewServer(mcpserver.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	h := startHub(t, ServerSpec{Name: "notes", Transport: TransportHTTP, URL: ts.URL + "/mcp", Locality: LocalityLocal})
	conn, st := supervisor(t, h, "notes").currentConn()
	if conn == nil || conn.era.version != mcpgo.ProtocolVersion20260728 {
		t.Fatalf("not connected in 2026-07-28: %+v", st)
	}
	waitUntil(t, "resources listed", func() bool { return len(h.Resources()) == 1 },
		func() string { return fmt.Sprintf("%+v", h.Servers()) })
	if _, err := h.ReadResource(t.Context(), "notes://one"); err != nil {
		t.Fatal(err)
	}
}

// TestLegacyAskingIsExplained: an mcp-go server that asks with the older
// protocol's sampling request fails that call on a 2026-07-28 connection
// (mcp-go refuses it); the hub's log says once what to set.
func TestLegacyAskingIsExplained(t *testing.T) {
	ts := httptest.NewServer(mcpserver.NewStreamableHTTPServer(askerServer()))
	t.Cleanup(ts.Close)
	logged := &testenv.Buffer{}
	h, err := New([]ServerSpec{{Name: "asker", Transport: TransportHTTP, URL: ts.URL + "/mcp", Locality: LocalityLocal}},
		Options{Logger: slog.New(slog.NewTextHandler(logged, nil)), ConnectTimeout: waitLimit, CallTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	t.Cleanup(func() { _ = h.Close() })
	if err := h.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	client := newFakeClient("dana", allCapabilities())
	for range 2 {
		res, err := h.Call(WithClient(t.Context(), client), "asker__sample", json.RawMessage(`{"text":"hi"}`), CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			t.Fatalf("the call worked on a 2026-07-28 connection: %s", res.Raw)
		}
	}
	if got := strings.Count(logged.String(), `set \"protocol\": \"2025-11-25\"`); got != 1 {
		t.Fatalf("advice logged %d times:\n%s", got, logged.String())
	}
}
