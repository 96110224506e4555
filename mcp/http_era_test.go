package mcp

import (
	"net/http"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// modernMeta is the _meta of a 2026-07-28 request.
const modernMeta = `"_meta":{"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
	mcpgo.MetaKeyClientCapabilities + `":{}}`

func modernHeaders(method string) map[string]string {
	return map[string]string{"Mcp-Protocol-Version": mcpgo.ProtocolVersion20260728, "Mcp-Method": method}
}

func TestModernRequestsWithoutMeta(t *testing.T) {
	st := newStack(t, Options{})
	live := newRawSession(t, st.http.URL(), testToken)
	live.initialize()
	session := map[string]string{"Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION,
		"Mcp-Session-Id": live.sessionID}
	tests := []struct {
		name       string
		headers    map[string]string
		body       string
		wantStatus int
		wantInBody string
	}{
		{"modern ping without _meta", modernHeaders("ping"),
			`{"jsonrpc":"2.0","id":"p1","method":"ping"}`, http.StatusOK, `{"jsonrpc":"2.0","id":"p1","result":{}}`},
		{"modern setLevel without _meta", modernHeaders("logging/setLevel"),
			`{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"warning"}}`,
			http.StatusOK, `{"jsonrpc":"2.0","id":2,"result":{}}`},
		{"modern setLevel of an unknown level", modernHeaders("logging/setLevel"),
			`{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"loud"}}`,
			http.StatusBadRequest, "params.level"},
		{"modern cancellation without _meta", modernHeaders("notifications/cancelled"),
			`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99,"reason":"gone"}}`,
			http.StatusAccepted, ""},
		{"modern notification without params", modernHeaders("notifications/initialized"),
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`, http.StatusAccepted, ""},
		{"modern tools/list with _meta", modernHeaders("tools/list"), modernToolsList, http.StatusOK, `"tools"`},
		{"modern tools/list without _meta is still refused", modernHeaders("tools/list"),
			`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}`, http.StatusBadRequest, mcpgo.MetaKeyProtocolVersion},
		{"legacy ping in its session", session, `{"jsonrpc":"2.0","id":5,"method":"ping"}`, http.StatusOK, `"result":{}`},
		{"legacy setLevel in its session", session,
			`{"jsonrpc":"2.0","id":6,"method":"logging/setLevel","params":{"level":"error"}}`, http.StatusOK, `"result":{}`},
		{"legacy ping without a session", map[string]string{"Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
			`{"jsonrpc":"2.0","id":7,"method":"ping"}`, http.StatusBadRequest, "Mcp-Session-Id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawRequest(t, http.MethodPost, st.http.URL(), tt.headers, tt.body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %s, want %d; body %q", resp.Status, tt.wantStatus, body)
			}
			if !strings.Contains(body, tt.wantInBody) {
				t.Errorf("body %q does not contain %q", body, tt.wantInBody)
			}
		})
	}
	if level, ok := st.server.levels.get(live.sessionID); !ok || level != mcpgo.LoggingLevelError {
		t.Errorf("legacy session's level = %q (set %v), want error", level, ok)
	}
}

// TestModernCancellationWithoutMeta cancels a 2026-07-28 call with a
// notifications/cancelled that carries no _meta, as current clients send it.
func TestModernCancellationWithoutMeta(t *testing.T) {
	st := newStack(t, Options{})
	call := `{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"fix__slow",` +
		`"arguments":{"steps":1000,"delay_ms":1000,"label":"long"},` + modernMeta + `}}`
	callHeaders := modernHeaders("tools/call")
	callHeaders["Mcp-Name"] = "fix__slow"
	answered := make(chan string, 1)
	go func() {
		_, body := rawRequest(t, http.MethodPost, st.http.URL(), callHeaders, call)
		answered <- body
	}()
	if label := <-st.fix.started; label != "long" {
		t.Fatalf("started %q", label)
	}
	resp, body := rawRequest(t, http.MethodPost, st.http.URL(), modernHeaders("notifications/cancelled"),
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":41,"reason":"no longer wanted"}}`)
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("cancellation: %s: %s", resp.Status, body)
	}
	if label := <-st.fix.cancelled; label != "long" {
		t.Errorf("cancelled %q, want the long call", label)
	}
	if body := <-answered; strings.Contains(body, "long done") {
		t.Errorf("the cancelled call completed: %s", body)
	}
}
