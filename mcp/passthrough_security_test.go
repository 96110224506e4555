package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// headerRecorder keeps every header of every request it passes on.
type headerRecorder struct {
	mu   sync.Mutex
	seen []http.Header
	next http.Handler
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Clone())
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

func (h *headerRecorder) headers() []http.Header {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]http.Header(nil), h.seen...)
}

func TestClientTokenNeverReachesADownstream(t *testing.T) {
	rec := &headerRecorder{next: mcpserver.NewStreamableHTTPServer(newFixture().srv)}
	downstream := httptest.NewServer(rec)
	t.Cleanup(func() { // after the hub has closed: its listening stream stays open until then
		downstream.CloseClientConnections()
		downstream.Close()
	})

	h := testHub(t, nil, hub.ServerSpec{
		Name: "remote", Transport: hub.TransportHTTP, URL: downstream.URL + "/mcp",
		Headers: map[string]string{"X-Configured": "yes"},
	})
	srv := testServer(t, h, Options{})
	endpoint := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	raw := newRawSession(t, endpoint.URL(), testToken)
	raw.headers["X-Client-Secret"] = "client-only"
	raw.initialize()
	raw.request("tools/call", map[string]any{"name": "remote__echo", "arguments": map[string]any{"message": "hi"}})

	seen := rec.headers()
	var calls int
	for _, hdr := range seen {
		if hdr.Get("X-Configured") == "yes" {
			calls++
		}
		for name, values := range hdr {
			for _, v := range values {
				if strings.Contains(v, testToken) || strings.Contains(v, "client-only") {
					t.Errorf("downstream received the client's %s header: %q", name, v)
				}
			}
		}
		if hdr.Get("Authorization") != "" {
			t.Errorf("downstream received an Authorization header it was not configured with: %q", hdr.Get("Authorization"))
		}
	}
	if calls == 0 || calls != len(seen) {
		t.Fatalf("%d of %d downstream requests carried the configured header; the recorder saw nothing useful", calls, len(seen))
	}
}
