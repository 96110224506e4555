package hub

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func modernSpec(t *testing.T, protocol Protocol) ServerSpec {
	return ServerSpec{Name: "modern", Transport: TransportStdio, Command: modernBuild.binary(t),
		Locality: LocalityLocal, Protocol: protocol}
}

// TestDownstreamEraIsNegotiated: a stdio server that answers
// server/discover is spoken to in 2026-07-28, every request carrying the
// _meta that era needs (mcp-go refuses requests without it); "protocol":
// "2025-11-25" keeps the same server on the handshake; a server of the
// older protocol only falls back to it.
func TestDownstreamEraIsNegotiated(t *testing.T) {
	old, _ := faultySpec(t, "old", "ok")
	cases := []struct {
		name string
		spec ServerSpec
		tool string
		want string
	}{
		{"a current server", modernSpec(t, ""), "modern__echo", mcpgo.ProtocolVersion20260728},
		{"a current server pinned to the handshake", modernSpec(t, ProtocolLegacy), "modern__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"a server of the older protocol", old, "old__echo", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := startHub(t, tc.spec)
			conn, _ := supervisor(t, h, tc.spec.Name).currentConn()
			if conn == nil {
				t.Fatalf("no connection; servers %+v", h.Servers())
			}
			if conn.era.version != tc.want {
				t.Fatalf("negotiated %q, want %q", conn.era.version, tc.want)
			}
			res, err := h.Call(t.Context(), tc.tool, json.RawMessage(`{"text":"hi"}`), CallOptions{})
			if err != nil || res.IsError {
				t.Fatalf("call %s: %v %s", tc.tool, err, res.Raw)
			}
		})
	}
}

// TestCurrentDownstreamAsksTheCallingClient: a 2026-07-28 server's
// InputRequiredResult (a name, then a sample) is answered by the calling
// client, as sampling and elicitation requests of the older protocol are,
// and the call is retried with the answers until it completes.
func TestCurrentDownstreamAsksTheCallingClient(t *testing.T) {
	h := startHub(t, modernSpec(t, ""))
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
	h := startHub(t, modernSpec(t, ""))
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
