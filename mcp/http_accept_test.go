package mcp

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestAcceptsEvents(t *testing.T) {
	tests := []struct {
		name   string
		accept []string
		want   bool
	}{
		{name: "no Accept header", want: true},
		{name: "both, as the specification asks", accept: []string{"application/json, text/event-stream"}, want: true},
		{name: "both in two headers", accept: []string{"application/json", "text/event-stream"}, want: true},
		{name: "JSON alone", accept: []string{"application/json"}},
		{name: "JSON with parameters", accept: []string{"application/json; charset=utf-8"}},
		{name: "anything", accept: []string{"*/*"}, want: true},
		{name: "any text", accept: []string{"application/json, text/*;q=0.5"}, want: true},
		{name: "letters in another case", accept: []string{"Text/Event-Stream"}, want: true},
		{name: "events refused by quality", accept: []string{"application/json, text/event-stream;q=0"}},
		{name: "anything refused by quality", accept: []string{"application/json, */*; q=0.000"}},
		{name: "a low quality is still accepted", accept: []string{"text/event-stream;q=0.001"}, want: true},
		{name: "an empty header", accept: []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := acceptsEvents(tt.accept); got != tt.want {
				t.Errorf("acceptsEvents(%q) = %v, want %v", tt.accept, got, tt.want)
			}
		})
	}
}

func FuzzAcceptsEvents(f *testing.F) {
	for _, seed := range []string{"application/json", "text/event-stream;q=0", "*/*;q=1", ";;,=,q=", "text/*; q=0.0, a/b"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		acceptsEvents([]string{accept})
		if !acceptsEvents([]string{accept, "text/event-stream"}) {
			t.Errorf("%q plus text/event-stream does not accept events", accept)
		}
		if acceptsEvents([]string{accept}) && !strings.Contains(strings.ToLower(accept), "/") {
			t.Errorf("%q names no media range but accepts events", accept)
		}
	})
}

// TestJSONOnlyClientIsAnsweredWithJSON calls a tool that sends progress
// with a client whose Accept header names application/json alone, on every
// path a call takes: it gets one JSON response, without the progress.
func TestJSONOnlyClientIsAnsweredWithJSON(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	legacy := map[string]string{"Mcp-Session-Id": raw.sessionID, "Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION}
	modern := modernHeaders("tools/call")
	modern["Mcp-Name"] = "fix__slow"
	const legacyCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fix__slow",` +
		`"arguments":{"steps":3,"delay_ms":0},"_meta":{"progressToken":"p"}}}`
	const modernCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fix__slow",` +
		`"arguments":{"steps":3,"delay_ms":0},"_meta":{"progressToken":"p","` + mcpgo.MetaKeyProtocolVersion + `":"` +
		mcpgo.ProtocolVersion20260728 + `","` + mcpgo.MetaKeyClientCapabilities + `":{}}}}`
	browser := func(h map[string]string) map[string]string {
		out := map[string]string{"Origin": "http://localhost"}
		for k, v := range h {
			out[k] = v
		}
		return out
	}
	tests := []struct {
		name       string
		headers    map[string]string
		body       string
		accept     string
		wantEvents bool
	}{
		{name: "2025-11-25, both accepted", headers: legacy, body: legacyCall, accept: "application/json, text/event-stream", wantEvents: true},
		{name: "2025-11-25, the short path", headers: legacy, body: legacyCall, accept: "application/json"},
		{name: "2025-11-25, through mcp-go", headers: browser(legacy), body: legacyCall, accept: "application/json"},
		{name: "2026-07-28, both accepted", headers: modern, body: modernCall, accept: "application/json, text/event-stream", wantEvents: true},
		{name: "2026-07-28, the short path", headers: modern, body: modernCall, accept: "application/json"},
		{name: "2026-07-28, through mcp-go", headers: browser(modern), body: modernCall, accept: "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			headers := map[string]string{"Accept": tt.accept}
			for k, v := range tt.headers {
				headers[k] = v
			}
			resp, body := rawRequest(t, http.MethodPost, st.http.URL(), headers, tt.body)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s: %s", resp.Status, body)
			}
			ct := resp.Header.Get("Content-Type")
			if tt.wantEvents {
				if ct != "text/event-stream" || !strings.Contains(body, "notifications/progress") {
					t.Fatalf("answered as %q without progress, want an event stream with it: %s", ct, body)
				}
				return
			}
			if ct != "application/json" {
				t.Fatalf("answered as %q, want application/json: %s", ct, body)
			}
			var reply struct {
				ID     int             `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal([]byte(body), &reply); err != nil || reply.ID != 7 || reply.Result == nil {
				t.Fatalf("body %s is not the call's JSON response: %v", body, err)
			}
		})
	}
}

func TestJSONOnlyClientIsNotAsked(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("asker", asker())), Options{Expose: ExposeDirect})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	raw := newRawSession(t, h.URL(), testToken)
	raw.capabilities = `{"elicitation":{}}`
	raw.initialize()
	resp, body := raw.post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"asker__ask"}}`,
		map[string]string{"Accept": "application/json"})
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "application/json" {
		t.Fatalf("%s, %q: %s", resp.Status, ct, body)
	}
	if !strings.Contains(string(body), `"isError":true`) || !strings.Contains(string(body), "accepts no event stream") {
		t.Errorf("answer %s, want the tool's error that the client could not be asked", body)
	}
}

func TestJSONOnlyClientsCancelledCallIsAnswered(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	type answer struct {
		resp *http.Response
		body []byte
	}
	answered := make(chan answer, 1)
	go func() {
		resp, body := raw.post(`{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"fix__slow",`+
			`"arguments":{"steps":50,"delay_ms":60000,"label":"long"}}}`, map[string]string{"Accept": "application/json"})
		answered <- answer{resp, body}
	}()
	<-st.fix.started
	if resp, body := raw.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long"}}`, nil); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %s: %s", resp.Status, body)
	}
	got := <-answered
	if ct := got.resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("the cancelled call was answered as %q, want application/json: %s", ct, got.body)
	}
	var reply struct {
		ID    string `json:"id"`
		Error struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(got.body, &reply); err != nil || reply.ID != "long" || reply.Error.Code != mcpgo.REQUEST_INTERRUPTED {
		t.Errorf("answer %s (%v), want error %d for request long", got.body, err, mcpgo.REQUEST_INTERRUPTED)
	}
}

// TestStreamOnlyRequestsOfAJSONOnlyClient: what can only be answered with
// an event stream is refused with 406 to a client that does not accept one.
func TestStreamOnlyRequestsOfAJSONOnlyClient(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	listenHeaders := modernHeaders("subscriptions/listen")
	const listen = `{"jsonrpc":"2.0","id":"l","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta + `}}`
	tests := []struct {
		name    string
		method  string
		headers map[string]string
		body    string
		wantID  any
	}{
		{name: "the session's GET stream", method: http.MethodGet,
			headers: map[string]string{"Mcp-Session-Id": raw.sessionID, "Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION}},
		{name: "subscriptions/listen", method: http.MethodPost, headers: listenHeaders, body: listen, wantID: "l"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			headers := map[string]string{"Accept": "application/json"}
			for k, v := range tt.headers {
				headers[k] = v
			}
			resp, body := rawRequest(t, tt.method, st.http.URL(), headers, tt.body)
			if resp.StatusCode != http.StatusNotAcceptable || resp.Header.Get("Content-Type") != "application/json" {
				t.Fatalf("%s (%s): %s, want 406 with a JSON-RPC error", resp.Status, resp.Header.Get("Content-Type"), body)
			}
			var reply struct {
				ID    any `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &reply); err != nil || reply.ID != tt.wantID ||
				reply.Error.Code != mcpgo.INVALID_REQUEST || !strings.Contains(reply.Error.Message, "text/event-stream") {
				t.Errorf("answer %s (%v), want invalid request naming text/event-stream under id %v", body, err, tt.wantID)
			}
		})
	}
}
