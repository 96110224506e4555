package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// sseMessages splits an event-stream body into its data lines.
func sseMessages(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.SplitSeq(string(body), "\n") {
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(data), &msg); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		out = append(out, msg)
	}
	return out
}

func TestHTTPCallSendsItsProgressAheadOfItsResult(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()

	resp, body := raw.post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fix__slow",`+
		`"arguments":{"steps":3,"delay_ms":0},"_meta":{"progressToken":"p-7"}}}`, nil)
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("call: %s, %q: %s", resp.Status, ct, body)
	}
	msgs := sseMessages(t, body)
	if len(msgs) != 4 {
		t.Fatalf("got %d messages, want 3 progress notifications and the result: %s", len(msgs), body)
	}
	for i, m := range msgs[:3] {
		params, _ := m["params"].(map[string]any)
		if m["method"] != "notifications/progress" || params["progressToken"] != "p-7" || params["progress"] != float64(i+1) {
			t.Errorf("message %d = %v, want progress %d under the client's token", i, m, i+1)
		}
	}
	if last := msgs[3]; last["id"] != float64(7) || last["result"] == nil {
		t.Errorf("last message = %v, want the result of request 7", last)
	}

	resp, body = raw.post(`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"fix__echo","arguments":{"message":"hi"}}}`, nil)
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("a call that sends nothing else is answered as %q, want application/json: %s", ct, body)
	}
	if !strings.Contains(string(body), `"id":8`) || !strings.Contains(string(body), "hi") {
		t.Errorf("echo answered %s", body)
	}
}

func TestHTTPCallIsCancelledByItsClient(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()

	answered := make(chan []byte, 1)
	go func() {
		_, body := raw.post(`{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"fix__slow",`+
			`"arguments":{"steps":50,"delay_ms":60000,"label":"long"}}}`, nil)
		answered <- body
	}()
	<-st.fix.started
	resp, body := raw.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"long"}}`, nil)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancel: %s: %s", resp.Status, body)
	}
	if got := <-st.fix.cancelled; got != "long" {
		t.Errorf("cancelled %q, want the long call", got)
	}
	// The call's response ends once it is cancelled, without a result: a
	// cancelled request is not answered.
	if body := <-answered; strings.Contains(string(body), `"id":"long"`) {
		t.Errorf("the cancelled call was answered: %s", body)
	}
}

func TestHTTPCallOfAnEndedSessionIsRefused(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, st.http.URL(), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Mcp-Session-Id", raw.sessionID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("delete: %s", resp.Status)
	}
	resp, body := raw.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fix__echo","arguments":{"message":"hi"}}}`, nil)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a call on a deleted session got %s: %s, want 404", resp.Status, body)
	}
}

// asker elicits a name and returns it.
func asker() *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("asker", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("ask"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		answer, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
			Message:         "your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}})
		if err != nil {
			return mcpgo.NewToolResultError("elicitation: " + err.Error()), nil
		}
		name, _ := answer.Content.(map[string]any)["name"].(string)
		return mcpgo.NewToolResultText(string(answer.Action) + " " + name), nil
	})
	return srv
}

func TestHTTPCallElicitsOnItsOwnResponse(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("asker", asker())), Options{Expose: ExposeDirect})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	raw := newRawSession(t, h.URL(), testToken)
	raw.capabilities = `{"elicitation":{}}`
	raw.initialize()

	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, h.URL(),
		strings.NewReader(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"asker__ask"}}`))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"Authorization": "Bearer " + testToken, "Mcp-Session-Id": raw.sessionID, "Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION} {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	ask := nextData(t, events)
	if ask["method"] != "elicitation/create" {
		t.Fatalf("first event %v, want the elicitation", ask)
	}
	id, _ := json.Marshal(ask["id"])
	answer, body := raw.post(`{"jsonrpc":"2.0","id":`+string(id)+`,"result":{"action":"accept","content":{"name":"dora"}}}`, nil)
	if answer.StatusCode != http.StatusAccepted {
		t.Fatalf("answer: %s: %s", answer.Status, body)
	}
	result := nextData(t, events)
	if result["id"] != float64(5) || !strings.Contains(fmt.Sprint(result["result"]), "accept dora") {
		t.Errorf("result %v, want the tool's answer with the name given", result)
	}
}

// nextData reads the next data line of an event stream.
func nextData(t *testing.T, r *bufio.Reader) map[string]any {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("event stream ended: %v", err)
		}
		if data, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), "data: "); ok {
			var msg map[string]any
			if err := json.Unmarshal([]byte(data), &msg); err != nil {
				t.Fatalf("event %q: %v", data, err)
			}
			return msg
		}
	}
}

func TestHTTPCallsSkipMCPGoUnlessTheyNeedIt(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	var viaMCPGo atomic.Int32
	st.server.mcp.GetHooks().AddBeforeCallTool(func(context.Context, any, *mcpgo.CallToolRequest) { viaMCPGo.Add(1) })
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	echo := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fix__echo","arguments":{"message":"hi"}}}`
	tests := []struct {
		name      string
		body      string
		extra     map[string]string
		stale     bool // the session was last heard of by mcp-go long ago
		wantMCPGo bool
	}{
		{name: "a plain call", body: echo},
		{name: "a call with progress", body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fix__slow",` +
			`"arguments":{"steps":1,"delay_ms":0},"_meta":{"progressToken":"p"}}}`},
		{name: "a browser's call", body: echo, extra: map[string]string{"Origin": "http://localhost:3000"}, wantMCPGo: true},
		{name: "a client that reads only event streams", body: echo, extra: map[string]string{"Accept": "text/event-stream"}, wantMCPGo: true},
		{name: "a call with a field the short path does not know", body: `{"jsonrpc":"2.0","id":3,"method":"tools/call",` +
			`"params":{"name":"fix__echo","arguments":{"message":"hi"},"extra":1}}`, wantMCPGo: true},
		{name: "a call with a retry's fields, which only 2026-07-28 has", body: `{"jsonrpc":"2.0","id":4,"method":"tools/call",` +
			`"params":{"name":"fix__echo","arguments":{"message":"hi"},"requestState":"s"}}`, wantMCPGo: true},
		{name: "the first call of a stale session keeps it alive in mcp-go", body: echo, stale: true, wantMCPGo: true},
		{name: "and the next skips mcp-go again", body: echo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.stale {
				st.server.sessions.get(raw.sessionID).viaMCPGo.Store(time.Now().Add(-DefaultSessionIdleTTL).UnixNano())
			}
			before := viaMCPGo.Load()
			resp, body := raw.post(tt.body, tt.extra)
			if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"result"`) {
				t.Fatalf("%s: %s", resp.Status, body)
			}
			if got := viaMCPGo.Load() > before; got != tt.wantMCPGo {
				t.Errorf("through mcp-go = %v, want %v", got, tt.wantMCPGo)
			}
		})
	}
}
