package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// mcpgoEvent frames data as mcp-go writes one event.
func mcpgoEvent(data string) string { return "event: message\ndata: " + data + "\n\n" }

func TestPlainResultsAnswersALoneResponseAsJSON(t *testing.T) {
	response := `{"jsonrpc":"2.0","id":4,"result":{"content":[]}}`
	tests := []struct {
		name     string
		accept   string
		sse      bool     // the handler starts an event stream
		writes   []string // what the handler writes, each followed by a flush when sse
		wantType string
		wantBody string
	}{
		{"the response alone on a stream", "application/json, text/event-stream", true,
			[]string{mcpgoEvent(response)}, "application/json", response + "\n"},
		{"an error alone on a stream", "application/json, text/event-stream", true,
			[]string{mcpgoEvent(`{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32601,"message":"no"}}`)},
			"application/json", `{"jsonrpc":"2.0","id":"a\"b","error":{"code":-32601,"message":"no"}}` + "\n"},
		{"a notification before the response", "application/json, text/event-stream", true,
			[]string{mcpgoEvent(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`), mcpgoEvent(response)},
			"text/event-stream",
			mcpgoEvent(`{"jsonrpc":"2.0","method":"notifications/progress","params":{}}`) + mcpgoEvent(response)},
		{"a request of the server's first", "application/json, text/event-stream", true,
			[]string{mcpgoEvent(`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{}}`)},
			"text/event-stream", mcpgoEvent(`{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{}}`)},
		{"a client that takes streams only", "text/event-stream", true,
			[]string{mcpgoEvent(response)}, "text/event-stream", mcpgoEvent(response)},
		{"a JSON answer", "application/json, text/event-stream", false,
			[]string{response + "\n"}, "application/json", response + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := plainResults(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if tt.sse {
					w.Header().Set("Content-Type", "text/event-stream")
					w.Header().Set("Connection", "keep-alive")
				} else {
					w.Header().Set("Content-Type", "application/json")
				}
				w.WriteHeader(http.StatusOK)
				for _, s := range tt.writes {
					if _, err := w.Write([]byte(s)); err != nil {
						t.Fatal(err)
					}
					if f, ok := w.(http.Flusher); ok && tt.sse {
						f.Flush()
					}
				}
			}))
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
			req.Header.Set("Accept", tt.accept)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if got := rec.Header().Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type = %q, want %q", got, tt.wantType)
			}
			if got := rec.Body.String(); got != tt.wantBody {
				t.Errorf("body = %q, want %q", got, tt.wantBody)
			}
			if tt.wantType == "application/json" && rec.Header().Get("Connection") != "" {
				t.Errorf("Connection = %q left on a JSON answer", rec.Header().Get("Connection"))
			}
		})
	}
}

func TestPlainResultsAfterABroadcast(t *testing.T) {
	st := newStack(t, Options{})
	raw := newRawSession(t, st.http.URL(), testToken)
	raw.initialize()
	// Any notification marks the session in mcp-go: from then on it
	// answers every request as an event stream.
	st.server.mcp.SendNotificationToAllClients("notifications/tools/list_changed", nil)
	t.Run("the next request carries the notification as a stream, or nothing", func(t *testing.T) {
		// mcp-go queues a broadcast on the session, and the next request
		// delivers it. The forwarder of the request before may still be
		// alive when the broadcast is queued, though, and then it may take
		// the notification and drop it. Either way the answer is whole: the
		// notification and the result as a stream, or the result alone as
		// JSON.
		resp, body := raw.post(`{"jsonrpc":"2.0","id":10,"method":"tools/call",`+
			`"params":{"name":"fix__echo","arguments":{"message":"hi"}}}`, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %s: %s", resp.Status, body)
		}
		wantType := "application/json"
		if strings.Contains(string(body), "tools/list_changed") {
			wantType = "text/event-stream"
		}
		if got := resp.Header.Get("Content-Type"); got != wantType {
			t.Errorf("Content-Type = %q, want %q; body %s", got, wantType, body)
		}
		if !strings.Contains(string(body), "echo: hi") {
			t.Errorf("body %s has no result", body)
		}
	})
	// The cases run in order on one session.
	tests := []struct {
		name     string
		body     string
		wantType string
		wantIn   string
	}{
		{"a call with nothing but its result", `{"jsonrpc":"2.0","id":11,"method":"tools/call",` +
			`"params":{"name":"fix__echo","arguments":{"message":"hi"}}}`, "application/json", `echo: hi`},
		{"a call reporting progress", `{"jsonrpc":"2.0","id":12,"method":"tools/call",` +
			`"params":{"name":"fix__slow","arguments":{"steps":2,"delay_ms":1},"_meta":{"progressToken":"p1"}}}`,
			"text/event-stream", "notifications/progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := raw.post(tt.body, nil)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %s: %s", resp.Status, body)
			}
			if got := resp.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type = %q, want %q; body %s", got, tt.wantType, body)
			}
			if !strings.Contains(string(body), tt.wantIn) {
				t.Errorf("body %s does not contain %s", body, tt.wantIn)
			}
		})
	}
}
