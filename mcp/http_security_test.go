package mcp

import (
	"net/http"
	"strings"
	"testing"
)

const initializeBody = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
	`"capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

func TestHTTPEndpointRefusesWhatItShould(t *testing.T) {
	st := newStack(t, Options{})
	url := st.http.URL()
	tests := []struct {
		name       string
		token      string
		headers    map[string]string
		body       string
		wantStatus int
		wantInBody string
	}{
		{"no token", "", nil, initializeBody, http.StatusUnauthorized, "Bearer"},
		{"wrong token", "not-the-token-0123456789", nil, initializeBody, http.StatusUnauthorized, "not toolhub's"},
		{"token of another scheme", "", map[string]string{"Authorization": "Basic " + testToken}, initializeBody, http.StatusUnauthorized, ""},
		{"foreign origin", testToken, map[string]string{"Origin": "https://evil.example"}, initializeBody, http.StatusForbidden, "evil.example"},
		{"null origin", testToken, map[string]string{"Origin": "null"}, initializeBody, http.StatusForbidden, ""},
		{"foreign origin without a token", "", map[string]string{"Origin": "http://evil.example:8765"}, initializeBody, http.StatusForbidden, ""},
		{"rebound host", testToken, map[string]string{"Host": "evil.example"}, initializeBody, http.StatusForbidden, "Host"},
		{"oversized body", testToken, nil, oversized(DefaultMaxBodyBytes + 1), http.StatusRequestEntityTooLarge, "at most 4194304 bytes"},
		{"loopback origin", testToken, map[string]string{"Origin": "http://localhost:3000"}, initializeBody, http.StatusOK, ""},
		{"ipv6 loopback origin", testToken, map[string]string{"Origin": "http://[::1]:5173"}, initializeBody, http.StatusOK, ""},
		{"right token", testToken, nil, initializeBody, http.StatusOK, ""},
		{"lower-case scheme", "", map[string]string{"Authorization": "bearer " + testToken}, initializeBody, http.StatusOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := newRawSession(t, url, tt.token)
			resp, body := raw.post(tt.body, tt.headers)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status = %s, want %d; body %q", resp.Status, tt.wantStatus, body)
			}
			if !strings.Contains(string(body), tt.wantInBody) {
				t.Errorf("body %q does not mention %q", body, tt.wantInBody)
			}
			if tt.wantStatus == http.StatusUnauthorized && !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("WWW-Authenticate = %q, want a Bearer challenge", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
}

// oversized is a syntactically valid request of at least n bytes.
func oversized(n int) string {
	return `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", n) + `"}}`
}

func TestUnknownSessionGets404(t *testing.T) {
	st := newStack(t, Options{})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	raw.request("tools/list", map[string]any{}) // the real session works

	raw.sessionID = "mcp-session-00000000-0000-4000-8000-000000000000"
	resp, body := raw.post(`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":{}}`, nil)
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown session: status = %s, want 404; body %q", resp.Status, body)
	}
}

func TestNoAuthOnlyOnLoopback(t *testing.T) {
	srv := testServer(t, testHub(t, nil), Options{})
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		if h, err := srv.ListenHTTP(HTTPOptions{Addr: addr}); err == nil {
			h.Close()
			t.Errorf("ListenHTTP(%s) without a token succeeded", addr)
		} else if !strings.Contains(err.Error(), "without authentication") {
			t.Errorf("ListenHTTP(%s): %v, want the refusal", addr, err)
		}
	}
	h, err := srv.ListenHTTP(HTTPOptions{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatalf("loopback without a token: %v", err)
	}
	h.Close()
}

func TestAllowedOriginIsAccepted(t *testing.T) {
	srv := testServer(t, testHub(t, nil), Options{})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken, AllowOrigins: []string{"https://App.Example.com:443"}})
	raw := newRawSession(t, h.URL(), testToken)
	for origin, want := range map[string]int{
		"https://app.example.com":      http.StatusOK,
		"https://app.example.com:8443": http.StatusForbidden,
		"http://app.example.com":       http.StatusForbidden,
	} {
		resp, body := raw.post(initializeBody, map[string]string{"Origin": origin})
		if resp.StatusCode != want {
			t.Errorf("origin %s: status %s, want %d; %s", origin, resp.Status, want, body)
		}
	}
	resp, _ := raw.post(initializeBody, map[string]string{"Origin": "https://app.example.com"})
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "https://app.example.com" {
		t.Errorf("CORS allow-origin on a POST = %q", got)
	}
	for origin, want := range map[string]int{"https://app.example.com": http.StatusNoContent, "https://evil.example": http.StatusForbidden} {
		resp := preflight(t, h.URL(), origin, "authorization, content-type, mcp-protocol-version")
		if resp.StatusCode != want {
			t.Errorf("preflight from %s without a token: %s, want %d", origin, resp.Status, want)
		}
		if want == http.StatusNoContent && !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Mcp-Protocol-Version") {
			t.Errorf("preflight allows headers %q", resp.Header.Get("Access-Control-Allow-Headers"))
		}
	}
	if _, err := srv.ListenHTTP(HTTPOptions{Token: testToken, AllowOrigins: []string{"app.example.com"}}); err == nil {
		t.Error("an allowed origin without a scheme was accepted")
	}
}

// TestLoopbackPagesGetCORS: a page on this machine at another port (the MCP
// Inspector's, say) is a cross-origin caller to the browser: its preflight
// is answered without a token, and every answer, a 401 included, lets it
// read the response and the session id.
func TestLoopbackPagesGetCORS(t *testing.T) {
	srv := testServer(t, testHub(t, nil), Options{})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	const page = "http://localhost:6274"
	resp := preflight(t, h.URL(), page, "authorization, content-type, mcp-method, mcp-param-region")
	allowed := resp.Header.Get("Access-Control-Allow-Headers")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != page ||
		!strings.Contains(allowed, "Mcp-Method") || !strings.Contains(allowed, "Mcp-Param-Region") ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "POST") {
		t.Fatalf("preflight: %s, headers %v", resp.Status, resp.Header)
	}

	raw := newRawSession(t, h.URL(), testToken)
	resp, body := raw.post(initializeBody, map[string]string{"Origin": page})
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != page ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "Mcp-Session-Id") {
		t.Fatalf("initialize from the page: %s, headers %v; %s", resp.Status, resp.Header, body)
	}
	resp, _ = newRawSession(t, h.URL(), "").post(initializeBody, map[string]string{"Origin": page})
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Access-Control-Allow-Origin") != page {
		t.Fatalf("a 401 the page cannot read: %s, headers %v", resp.Status, resp.Header)
	}
	resp, _ = raw.post(initializeBody, map[string]string{"Origin": "https://evil.example"})
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("another site's page: %s, headers %v", resp.Status, resp.Header)
	}
}

// TestPagesGetNoCORSFromAnEndpointWithoutAToken: without a token, a page
// of this machine gets no CORS, so that no page a local program serves can
// use the endpoint; an origin --allow-origin names still does.
func TestPagesGetNoCORSFromAnEndpointWithoutAToken(t *testing.T) {
	srv := testServer(t, testHub(t, nil), Options{})
	h := serveHTTP(t, srv, HTTPOptions{AllowOrigins: []string{"http://localhost:6274"}})
	for page, want := range map[string]string{"http://localhost:6274": "http://localhost:6274", "http://localhost:3000": ""} {
		resp := preflight(t, h.URL(), page, "")
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != want {
			t.Errorf("preflight from %s: Access-Control-Allow-Origin %q, want %q", page, got, want)
		}
	}
}

// preflight sends a browser's CORS preflight for a POST from origin, asking
// for headers (comma-separated; none when empty), and returns the answer.
func preflight(t *testing.T, url, origin, headers string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodOptions, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", "POST")
	if headers != "" {
		req.Header.Set("Access-Control-Request-Headers", headers)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}
