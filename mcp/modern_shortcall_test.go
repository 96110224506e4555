package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

func TestModernHTTPCallsSkipMCPGoUnlessTheyNeedIt(t *testing.T) {
	st := newStack(t, Options{Expose: ExposeDirect})
	var viaMCPGo atomic.Int32
	st.server.mcp.GetHooks().AddBeforeCallTool(func(context.Context, any, *mcpgo.CallToolRequest) { viaMCPGo.Add(1) })
	headers := func(name string) map[string]string {
		h := modernHeaders("tools/call")
		h["Mcp-Name"] = name
		return h
	}
	echo := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fix__echo","arguments":{"message":"hi"},` + modernMeta + `}}`
	tests := []struct {
		name       string
		headers    map[string]string
		body       string
		wantStatus int
		wantIn     []string
		wantMCPGo  bool
	}{
		{name: "a plain call", headers: headers("fix__echo"), body: echo, wantStatus: http.StatusOK,
			wantIn: []string{`"resultType":"complete"`, "echo: hi", mcpgo.MetaKeyServerInfo}},
		{name: "a call with progress", headers: headers("fix__slow"), wantStatus: http.StatusOK,
			body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fix__slow","arguments":{"steps":2,"delay_ms":0},` +
				`"_meta":{"progressToken":"t2","` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 +
				`","` + mcpgo.MetaKeyClientCapabilities + `":{}}}}`,
			wantIn: []string{`"method":"notifications/progress"`, `"progressToken":"t2"`, `"resultType":"complete"`}},
		{name: "a _meta key the short path does not know", headers: headers("fix__echo"), wantStatus: http.StatusOK,
			body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fix__echo","arguments":{"message":"hi"},` +
				`"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","` + mcpgo.MetaKeyProtocolVersion +
				`":"` + mcpgo.ProtocolVersion20260728 + `","` + mcpgo.MetaKeyClientCapabilities + `":{}}}}`,
			wantIn: []string{"echo: hi"}, wantMCPGo: true},
		{name: "an Mcp-Name that is not the body's", headers: headers("fix__slow"), body: echo,
			wantStatus: http.StatusBadRequest, wantIn: []string{"Mcp-Name"}},
		{name: "no client capabilities", headers: headers("fix__echo"), wantStatus: http.StatusBadRequest,
			body: `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fix__echo","arguments":{"message":"hi"},` +
				`"_meta":{"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `"}}}`,
			wantIn: []string{mcpgo.MetaKeyClientCapabilities}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := viaMCPGo.Load()
			resp, body := rawRequest(t, http.MethodPost, st.http.URL(), tt.headers, tt.body)
			if resp.StatusCode != tt.wantStatus {
				t.Fatalf("status %s, want %d: %s", resp.Status, tt.wantStatus, body)
			}
			for _, want := range tt.wantIn {
				if !strings.Contains(body, want) {
					t.Errorf("answer %s does not contain %s", body, want)
				}
			}
			if got := viaMCPGo.Load() > before; got != tt.wantMCPGo {
				t.Errorf("through mcp-go = %v, want %v", got, tt.wantMCPGo)
			}
		})
	}
}

// rootsAsker returns the client's roots.
func rootsAsker() *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("rooted", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("roots"), func(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		roots, err := srv.RequestRoots(ctx, mcpgo.ListRootsRequest{})
		if err != nil {
			return mcpgo.NewToolResultError("roots: " + err.Error()), nil
		}
		return mcpgo.NewToolResultText(fmt.Sprint(len(roots.Roots), " roots")), nil
	})
	return srv
}

// TestModernHTTPCallAsksForRootsInTheFormEveryClientReads: a roots/list
// input request of a call the short path serves carries empty params, as
// on every other path (the Go SDK's client cannot read one without).
func TestModernHTTPCallAsksForRootsInTheFormEveryClientReads(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("rooted", rootsAsker())), Options{Expose: ExposeDirect})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	headers := modernHeaders("tools/call")
	headers["Mcp-Name"] = "rooted__roots"
	resp, body := rawRequest(t, http.MethodPost, h.URL(), headers,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rooted__roots","arguments":{},"_meta":{"`+
			mcpgo.MetaKeyProtocolVersion+`":"`+mcpgo.ProtocolVersion20260728+`","`+mcpgo.MetaKeyClientCapabilities+`":{"roots":{}}}}}`)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s", resp.Status, body)
	}
	if !strings.Contains(body, `"resultType":"input_required"`) || !strings.Contains(body, `{"method":"roots/list","params":{}}`) {
		t.Errorf("answer %s, want an input request for roots/list with empty params", body)
	}
}

// TestModernHTTPRetryTakesTheShortPath: both rounds of a 2026-07-28 call
// whose downstream asks for the client's roots skip mcp-go's request
// handling, and the roots the retry carries reach the downstream.
func TestModernHTTPRetryTakesTheShortPath(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("rooted", rootsAsker())), Options{Expose: ExposeDirect})
	var viaMCPGo atomic.Int32
	srv.mcp.GetHooks().AddBeforeCallTool(func(context.Context, any, *mcpgo.CallToolRequest) { viaMCPGo.Add(1) })
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	headers := modernHeaders("tools/call")
	headers["Mcp-Name"] = "rooted__roots"
	meta := `"_meta":{"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
		mcpgo.MetaKeyClientCapabilities + `":{"roots":{}}}`
	_, first := rawRequest(t, http.MethodPost, h.URL(), headers,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rooted__roots","arguments":{},`+meta+`}}`)
	var asked struct {
		Result struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(first), &asked); err != nil || len(asked.Result.InputRequests) != 1 || asked.Result.RequestState == "" {
		t.Fatalf("first round %s (%v), want one input request and a requestState", first, err)
	}
	var answers []string
	for id := range asked.Result.InputRequests {
		answers = append(answers, fmt.Sprintf(`%q:{"roots":[{"uri":"file:///a"},{"uri":"file:///b"}]}`, id))
	}
	resp, second := rawRequest(t, http.MethodPost, h.URL(), headers,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"rooted__roots","arguments":{},`+meta+
			`,"inputResponses":{`+strings.Join(answers, ",")+`},"requestState":"`+asked.Result.RequestState+`"}}`)
	if resp.StatusCode != http.StatusOK || !strings.Contains(second, "2 roots") || !strings.Contains(second, `"resultType":"complete"`) {
		t.Fatalf("retry: %s %s, want the downstream to have seen the two roots", resp.Status, second)
	}
	if n := viaMCPGo.Load(); n != 0 {
		t.Errorf("%d rounds went through mcp-go, want none", n)
	}
}

// regional echoes its region, which travels in the Mcp-Param-Region header
// too.
func regional() *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("geo", "1", mcpserver.WithToolCapabilities(false))
	tool := mcpgo.NewToolWithRawSchema("where", "Say the region.",
		json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`))
	srv.AddTool(tool, func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("in " + req.GetString("region", "")), nil
	})
	return srv
}

func TestModernHTTPCallChecksItsParamHeaders(t *testing.T) {
	srv := testServer(t, testHub(t, nil, inProcess("geo", regional())), Options{Expose: ExposeDirect})
	h := serveHTTP(t, srv, HTTPOptions{Token: testToken})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"geo__where","arguments":{"region":"eu"},` + modernMeta + `}}`
	for _, tt := range []struct {
		region     string
		wantStatus int
		wantIn     string
	}{
		{"eu", http.StatusOK, "in eu"},
		{"us", http.StatusBadRequest, "Mcp-Param-Region"},
	} {
		headers := modernHeaders("tools/call")
		headers["Mcp-Name"] = "geo__where"
		headers["Mcp-Param-Region"] = tt.region
		resp, body := rawRequest(t, http.MethodPost, h.URL(), headers, call)
		if resp.StatusCode != tt.wantStatus || !strings.Contains(body, tt.wantIn) {
			t.Errorf("header %q: %s %s, want %d with %q", tt.region, resp.Status, body, tt.wantStatus, tt.wantIn)
		}
	}
}

// FuzzUnwrapCallTool reads any call_tool arguments: it never panics, and
// what it takes names a tool, with arguments that are absent, null or an
// object, as handleCallTool would forward them.
func FuzzUnwrapCallTool(f *testing.F) {
	for _, seed := range []string{
		`{"name":"srv__work","arguments":{"a":1}}`,
		`{"name":"srv__work"}`,
		`{"name":"srv__work","arguments":null}`,
		`{"name":"srv__work","arguments":"hi"}`,
		`{"name":"","arguments":{}}`,
		`{"arguments":{}}`,
		`{"name":3}`,
		`[]`,
		``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p := shortCallParams{Name: CallToolName, Arguments: raw}
		if !p.unwrapCallTool() {
			return
		}
		if p.tool == "" {
			t.Fatalf("took %q with no tool name", raw)
		}
		if a := bytes.TrimSpace(p.args); len(a) > 0 && string(a) != "null" {
			var obj map[string]json.RawMessage
			if json.Unmarshal(a, &obj) != nil {
				t.Fatalf("took arguments %q that are not an object", a)
			}
		}
	})
}
