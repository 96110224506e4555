package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// inventedSessionID is well formed but was never issued.
const inventedSessionID = "mcp-session-00000000-0000-4000-8000-000000000000"

// modernToolsList is a tools/list of the 2026-07-28 era, which carries its
// protocol version in _meta and no session.
const modernToolsList = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"` +
	mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
	mcpgo.MetaKeyClientCapabilities + `":{}}}}`

func TestHTTPStatusesFollowTheSpec(t *testing.T) {
	st := newStack(t, Options{})
	live := newRawSession(t, st.http.URL(), testToken)
	live.initialize()
	legacy := map[string]string{"Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION}
	withID := func(id string) map[string]string {
		return map[string]string{"Mcp-Protocol-Version": mcpgo.LATEST_LEGACY_PROTOCOL_VERSION, "Mcp-Session-Id": id}
	}
	modern := map[string]string{"Mcp-Protocol-Version": mcpgo.ProtocolVersion20260728, "Mcp-Method": "tools/list"}
	toolsList := `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{}}`
	tests := []struct {
		name       string
		method     string
		headers    map[string]string
		body       string
		wantStatus int
		wantInBody string
		wantAllow  bool
	}{
		{"legacy request without a session id", http.MethodPost, legacy, toolsList, http.StatusBadRequest, "Mcp-Session-Id header missing", false},
		{"legacy request with an invented session id", http.MethodPost, withID(inventedSessionID), toolsList, http.StatusNotFound,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32001,"message":"session not found`, false},
		{"legacy request with its session id", http.MethodPost, withID(live.sessionID), toolsList, http.StatusOK, `"tools"`, false},
		{"legacy initialize without a session id", http.MethodPost, nil, initializeBody, http.StatusOK, `"serverInfo"`, false},
		{"GET with an invented session id", http.MethodGet, withID(inventedSessionID), "", http.StatusNotFound, `"error":{"code":-32001,"message":"session not found`, false},
		{"GET without a session id", http.MethodGet, legacy, "", http.StatusBadRequest, "Mcp-Session-Id", false},
		{"DELETE of an invented session id", http.MethodDelete, withID(inventedSessionID), "", http.StatusNotFound, "session not found", false},
		{"PUT", http.MethodPut, withID(live.sessionID), toolsList, http.StatusMethodNotAllowed, "PUT", true},
		{"PATCH", http.MethodPatch, withID(live.sessionID), toolsList, http.StatusMethodNotAllowed, "PATCH", true},
		{"a made-up method", "FROB", nil, "", http.StatusMethodNotAllowed, "FROB", true},
		{"batch", http.MethodPost, withID(live.sessionID), "[" + toolsList + "," + toolsList + "]", http.StatusBadRequest, "batches are not supported", false},
		{"an id with neither a method nor an answer", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":7}`,
			http.StatusBadRequest, `"id":7,"error":{"code":-32600,"message":"invalid request: a message with an id needs a method`, false},
		{"a request with a null id", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`,
			http.StatusBadRequest, "never null", false},
		{"a method that is not a string", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":8,"method":5}`,
			http.StatusBadRequest, `"id":8,"error":{"code":-32600`, false},
		{"valid JSON that is not an object", http.MethodPost, withID(live.sessionID), `5`, http.StatusBadRequest, "a JSON-RPC message is a JSON object", false},
		{"an object id", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`,
			http.StatusBadRequest, "a string or an integer", false},
		{"params that are not an object", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":[1]}`,
			http.StatusBadRequest, `"id":10,"error":{"code":-32602,"message":"invalid params: the params of an MCP request are a JSON object"`, false},
		{"modern initialize, a method 2026-07-28 removed", http.MethodPost,
			map[string]string{"Mcp-Protocol-Version": mcpgo.ProtocolVersion20260728, "Mcp-Method": "initialize"},
			strings.Replace(modernToolsList, "tools/list", "initialize", 1), http.StatusNotFound, `"code":-32601`, false},
		{"an id past 2^53", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
			http.StatusBadRequest, `"id":9007199254740993,"error":{"code":-32600`, false},
		{"params of the wrong type", http.MethodPost, withID(live.sessionID), `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":5}}`,
			http.StatusOK, `"id":13,"error":{"code":-32602,"message":"unparsable tools/call request`, false},
		{"initialize without params", http.MethodPost, nil, `{"jsonrpc":"2.0","id":11,"method":"initialize"}`,
			http.StatusBadRequest, `"id":11,"error":{"code":-32602`, false},
		{"a modern id without a method", http.MethodPost, modern, `{"jsonrpc":"2.0","id":9}`, http.StatusBadRequest, `"id":9,"error":{"code":-32600`, false},
		{"modern request without a session", http.MethodPost, modern, modernToolsList, http.StatusOK, `"tools"`, false},
		{"modern request with a stray session id", http.MethodPost,
			map[string]string{"Mcp-Protocol-Version": mcpgo.ProtocolVersion20260728, "Mcp-Method": "tools/list",
				"Mcp-Session-Id": inventedSessionID},
			modernToolsList, http.StatusOK, `"tools"`, false},
		{"modern GET", http.MethodGet, modern, "", http.StatusMethodNotAllowed, "subscriptions/listen", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := rawRequest(t, tt.method, st.http.URL(), tt.headers, tt.body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %s, want %d; body %q", resp.Status, tt.wantStatus, body)
			}
			if !strings.Contains(body, tt.wantInBody) {
				t.Errorf("body %q does not mention %q", body, tt.wantInBody)
			}
			if tt.wantAllow && !strings.Contains(resp.Header.Get("Allow"), http.MethodPost) {
				t.Errorf("Allow = %q, want the allowed methods", resp.Header.Get("Allow"))
			}
		})
	}
}

func TestBatchGetsAJSONRPCError(t *testing.T) {
	st := newStack(t, Options{})
	resp, body := rawRequest(t, http.MethodPost, st.http.URL(), nil, `  [{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status = %s; %s", resp.Status, body)
	}
	var reply struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &reply); err != nil {
		t.Fatalf("not a JSON-RPC message: %v: %s", err, body)
	}
	if reply.JSONRPC != "2.0" || string(reply.ID) != "null" || reply.Error.Code != mcpgo.INVALID_REQUEST ||
		strings.Contains(reply.Error.Message, "not valid json") {
		t.Errorf("reply = %s", body)
	}
}

// rawRequest sends one request with the bearer token and returns the
// response with its body read.
func rawRequest(t *testing.T, method, url string, headers map[string]string, body string) (*http.Response, string) {
	t.Helper()
	return rawRequestWithin(t.Context(), t, method, url, headers, body)
}

// rawRequestWithin is rawRequest bounded by ctx.
func rawRequestWithin(ctx context.Context, t *testing.T, method, url string, headers map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read the answer: %v", method, url, err)
	}
	return resp, string(data)
}
