package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

func missingArgument() *hub.RemoteError {
	return &hub.RemoteError{Server: "everything", Method: "prompts/get", Code: mcpgo.INVALID_PARAMS,
		Message: "Invalid arguments for prompt args-prompt: city is required"}
}

func TestPassOn(t *testing.T) {
	internal := `{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"server everything: prompts/get: ..."}}`
	notFound := &hub.RemoteError{Code: mcpgo.RESOURCE_NOT_FOUND, Message: "Resource not found", Data: map[string]any{"uri": "demo://x"}}
	cases := []struct {
		name, msg string
		remote    *hub.RemoteError
		uri       string
		modern    bool
		want      string // "" when the message stays as it is
	}{
		{"a JSON response", internal + "\n", missingArgument(), "", false,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid arguments for prompt args-prompt: city is required"}}` + "\n"},
		{"an event", "event: message\ndata: " + internal + "\n\n", missingArgument(), "", false,
			"event: message\ndata: " + `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid arguments for prompt args-prompt: city is required"}}` + "\n\n"},
		{"resource not found, its data kept", internal, notFound, "", false,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"demo://x"}}}`},
		{"resource not found to a 2026-07-28 client", internal, notFound, "", true,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Resource not found","data":{"uri":"demo://x"}}}`},
		{"another error stays", `{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no"}}`, missingArgument(), "", false, ""},
		{"a result stays", `{"jsonrpc":"2.0","id":4,"result":{}}`, missingArgument(), "", false, ""},
		{"a notification event stays", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}\n\n", missingArgument(), "", false, ""},
		{"a URI no server has gets its data", `{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"not found"}}`, nil, "demo://y", false,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"not found","data":{"uri":"demo://y"}}}`},
		{"the same in 2026-07-28", "event: message\ndata: " + `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"not found"}}` + "\n\n", nil, "demo://y", true,
			"event: message\ndata: " + `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"not found","data":{"uri":"demo://y"}}}` + "\n\n"},
		{"a not-found with data keeps it", `{"jsonrpc":"2.0","id":4,"error":{"code":-32002,"message":"gone","data":{"uri":"demo://z"}}}`, nil, "demo://y", false, ""},
		{"an internal error without a downstream's stays", internal, nil, "demo://y", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, ok := passOn([]byte(tc.msg), mend{remote: tc.remote, uri: tc.uri}, tc.modern)
			if ok != (tc.want != "") || (ok && string(out) != tc.want) {
				t.Errorf("passOn = %q, %v; want %q", out, ok, tc.want)
			}
		})
	}
}

// Params mcp-go could not decode get invalid params, with mcp-go's message;
// any other invalid request stays as it is.
func TestPassOnUnparsable(t *testing.T) {
	unparsable := `{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"unparsable tools/call request: x"}}`
	out, ok := passOn([]byte(unparsable), mend{unparsable: true}, false)
	if want := `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"unparsable tools/call request: x"}}`; !ok || string(out) != want {
		t.Errorf("passOn = %s, %v; want %s", out, ok, want)
	}
	if _, ok := passOn([]byte(unparsable), mend{}, false); ok {
		t.Error("an invalid request changed without mcp-go saying it could not decode it")
	}
}

// TestPassRemoteErrorsOverHTTP: the internal error mcp-go writes for a
// forwarded request the downstream refused becomes the downstream's error,
// with the status 2026-07-28 gives it; an internal error no handler
// explained stays as it is.
func TestPassRemoteErrorsOverHTTP(t *testing.T) {
	mcpGoLike := func(events bool) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if bytes.Contains(readBody(r), []byte("prompts/get")) {
				_ = noteRemoteError(r.Context(), missingArgument())
			}
			resp := `{"jsonrpc":"2.0","id":9,"error":{"code":-32603,"message":"internal"}}`
			if events {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				_, _ = w.Write([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\n\n"))
				_, _ = w.Write([]byte("event: message\ndata: " + resp + "\n\n"))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_ = json.NewEncoder(w).Encode(json.RawMessage(resp))
		})
	}
	modern := `{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"p","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	legacy := `{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"p"}}`
	cases := []struct {
		name, body string
		events     bool
		status     int
		want       string
	}{
		{"legacy JSON", legacy, false, http.StatusOK, `"code":-32602`},
		{"2026-07-28 JSON", modern, false, http.StatusBadRequest, `"code":-32602`},
		{"an event stream", legacy, true, http.StatusOK, `"code":-32602`},
		{"nothing noted", `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`, false, http.StatusOK, `"code":-32603`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(tc.body))
			req = req.WithContext(withBody(req.Context(), []byte(tc.body)))
			rec := httptest.NewRecorder()
			passRemoteErrors(mcpGoLike(tc.events)).ServeHTTP(rec, req)
			if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("status %d body %q; want %d and %s", rec.Code, rec.Body.String(), tc.status, tc.want)
			}
		})
	}
}

func TestPassOnMessageOverStdio(t *testing.T) {
	internal := mcpgo.NewJSONRPCError(mcpgo.NewRequestId(3), mcpgo.INTERNAL_ERROR, "internal", nil)
	got := passOnMessage(internal, &remoteErrorSlot{m: mend{remote: missingArgument()}}, false)
	if e, ok := got.(mcpgo.JSONRPCError); !ok || e.Error.Code != mcpgo.INVALID_PARAMS || !strings.Contains(e.Error.Message, "city is required") {
		t.Errorf("passOnMessage = %+v", got)
	}
	if got := passOnMessage(internal, &remoteErrorSlot{}, false); got.(mcpgo.JSONRPCError).Error.Code != mcpgo.INTERNAL_ERROR {
		t.Errorf("without a downstream error the response changed: %+v", got)
	}
	notFound := mcpgo.NewJSONRPCError(mcpgo.NewRequestId(3), mcpgo.RESOURCE_NOT_FOUND, "not found", nil)
	got = passOnMessage(notFound, &remoteErrorSlot{m: mend{uri: "demo://y"}}, false)
	if e := got.(mcpgo.JSONRPCError).Error; e.Code != mcpgo.RESOURCE_NOT_FOUND || !reflect.DeepEqual(e.Data, map[string]string{"uri": "demo://y"}) {
		t.Errorf("a URI no server has: %+v", e)
	}
}

func FuzzPassOn(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"x"}}`))
	f.Add([]byte("event: message\ndata: {\"id\":1,\"error\":{\"code\":-32603}}\n\n"))
	f.Add([]byte("event: message\n"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		out, ok := passOn(msg, mend{remote: missingArgument()}, false)
		if !ok {
			return
		}
		body := out
		if i := strings.Index(string(out), "data: "); strings.HasPrefix(string(out), "event: ") && i >= 0 {
			body = out[i+len("data: "):]
		}
		var resp struct {
			Error struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(strings.TrimRight(string(body), "\n")), &resp); err != nil || resp.Error.Code != mcpgo.INVALID_PARAMS {
			t.Fatalf("passOn(%q) = %q: %v", msg, out, err)
		}
	})
}
