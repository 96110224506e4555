package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// rawSession speaks JSON-RPC over plain HTTP POSTs with the legacy
// (2025-11-25) handshake, so tests see exact status codes and exact bytes.
type rawSession struct {
	t         *testing.T
	url       string
	headers   map[string]string
	sessionID string
	nextID    int
	// capabilities are what initialize declares; "" declares none.
	capabilities string
}

func newRawSession(t *testing.T, url, token string) *rawSession {
	r := &rawSession{t: t, url: url, headers: map[string]string{}}
	if token != "" {
		r.headers["Authorization"] = "Bearer " + token
	}
	return r
}

// post sends body with the session's headers plus extra ("Host" sets the
// request's Host), and returns the response with its body read.
func (r *rawSession) post(body string, extra map[string]string) (*http.Response, []byte) {
	r.t.Helper()
	req, err := http.NewRequestWithContext(r.t.Context(), http.MethodPost, r.url, strings.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if r.sessionID != "" {
		req.Header.Set("Mcp-Session-Id", r.sessionID)
		req.Header.Set("Mcp-Protocol-Version", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
	}
	for k, v := range r.headers {
		req.Header.Set(k, v)
	}
	for k, v := range extra {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return resp, data
}

// initialize performs the legacy handshake and keeps the session id.
func (r *rawSession) initialize() {
	r.t.Helper()
	caps := r.capabilities
	if caps == "" {
		caps = "{}"
	}
	resp, body := r.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"`+
		mcpgo.LATEST_LEGACY_PROTOCOL_VERSION+`","capabilities":`+caps+`,"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("initialize: %s: %s", resp.Status, body)
	}
	r.sessionID = resp.Header.Get("Mcp-Session-Id")
	if r.sessionID == "" {
		r.t.Fatal("initialize: no Mcp-Session-Id: sessions are not stateful")
	}
	resp, body = r.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	if resp.StatusCode != http.StatusAccepted {
		r.t.Fatalf("initialized: %s: %s", resp.Status, body)
	}
}

// request sends one request and returns its result, failing on an error.
func (r *rawSession) request(method string, params any) json.RawMessage {
	r.t.Helper()
	r.nextID++
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": r.nextID, "method": method, "params": params})
	if err != nil {
		r.t.Fatal(err)
	}
	resp, body := r.post(string(msg), nil)
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("%s: %s: %s", method, resp.Status, body)
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(lastMessage(r.t, resp, body), &reply); err != nil {
		r.t.Fatalf("%s: %v in %s", method, err, body)
	}
	if reply.Error != nil {
		r.t.Fatalf("%s: error %s", method, reply.Error)
	}
	return reply.Result
}

// lastMessage is the JSON-RPC response in a JSON or event-stream body.
func lastMessage(t *testing.T, resp *http.Response, body []byte) []byte {
	t.Helper()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return body
	}
	var last []byte
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: ")); ok && bytes.Contains(data, []byte(`"id"`)) {
			last = append([]byte(nil), data...)
		}
	}
	if last == nil {
		t.Fatalf("no response in event stream %s", body)
	}
	return last
}

// compactJSON normalises JSON text for comparison.
func compactJSON(t *testing.T, s []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, s); err != nil {
		t.Fatalf("compact %s: %v", s, err)
	}
	return buf.String()
}
