package hub

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// taskOnlyServer is an mcp-go server, spoken to in 2025-11-25, whose one
// tool runs only as a task: mcp-go refuses it a plain tools/call.
func taskOnlyServer(t *testing.T, handler mcpserver.ToolHandlerFunc) *Hub {
	t.Helper()
	return taskServer(t, ProtocolLegacy, mcpgo.TaskSupportRequired, handler)
}

// taskServer is a hub with one mcp-go server over HTTP, spoken to in era,
// whose tool "research" has the given task support.
func taskServer(t *testing.T, era Protocol, support mcpgo.TaskSupport, handler mcpserver.ToolHandlerFunc,
	opts ...mcpserver.ServerOption) *Hub {
	t.Helper()
	opts = append(opts, mcpserver.WithTaskCapabilities(true, true, true))
	srv := mcpserver.NewMCPServer("tasks", "1", opts...)
	srv.AddTool(mcpgo.NewTool("research", mcpgo.WithString("topic"), mcpgo.WithTaskSupport(support)), handler)
	ts := httptest.NewServer(mcpserver.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	return startHub(t, ServerSpec{Name: "tasks", Transport: TransportHTTP, URL: ts.URL + "/mcp",
		Locality: LocalityLocal, Protocol: era})
}

// An mcp-go server keeps the Tasks of 2025-11-25 in 2026-07-28 too, where
// nothing reads a task's result: one with task-only tools is spoken to in
// 2025-11-25, and no other.
func TestTaskServersEra(t *testing.T) {
	report := func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("report on " + req.GetString("topic", "")), nil
	}
	cases := []struct {
		name    string
		support mcpgo.TaskSupport
		opts    []mcpserver.ServerOption
		want    string
	}{
		{"a task-only tool", mcpgo.TaskSupportRequired, nil, mcpgo.LATEST_LEGACY_PROTOCOL_VERSION},
		{"a tool that may run as a task", mcpgo.TaskSupportOptional, nil, mcpgo.ProtocolVersion20260728},
		{"a task-only tool and the Tasks extension", mcpgo.TaskSupportRequired,
			[]mcpserver.ServerOption{mcpserver.WithExtensions(map[string]any{TasksExtension: map[string]any{}})},
			mcpgo.ProtocolVersion20260728},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := taskServer(t, "", tc.support, report, tc.opts...)
			conn, _ := supervisor(t, h, "tasks").currentConn()
			if conn == nil {
				t.Fatalf("no connection; servers %+v", h.Servers())
			}
			if conn.era.version != tc.want {
				t.Fatalf("negotiated %q, want %q", conn.era.version, tc.want)
			}
			if tc.support == mcpgo.TaskSupportRequired && tc.want == mcpgo.ProtocolVersion20260728 {
				return // mcp-go serves no Tasks extension: the call would fail
			}
			res, err := h.Call(t.Context(), "tasks__research", json.RawMessage(`{"topic":"tides"}`), CallOptions{})
			if err != nil || res.IsError || resultText(t, res.Raw) != "report on tides" {
				t.Fatalf("call: %v %s", err, res.Raw)
			}
		})
	}
}

func TestTaskOnlyToolAnswersAPlainCall(t *testing.T) {
	h := taskOnlyServer(t, func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("report on " + req.GetString("topic", "")), nil
	})
	res, err := h.Call(t.Context(), "tasks__research", json.RawMessage(`{"topic":"tides"}`), CallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(t, res.Raw); res.IsError || text != "report on tides" {
		t.Fatalf("result %s", res.Raw)
	}
	if strings.Contains(string(res.Raw), mcpgo.RelatedTaskMetaKey) {
		t.Fatalf("the result names a task the client never asked for: %s", res.Raw)
	}
}

func TestTaskAnswers(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"the related task goes", `{"content":[],"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"}}}`, `{"content":[]}`},
		{"other _meta stays", `{"_meta":{"io.modelcontextprotocol/related-task":{"taskId":"a"},"k":1},"content":[]}`, `{"_meta":{"k":1},"content":[]}`},
		{"no _meta is left as it is", `{"content":[{"type":"text","text":"x"}]}`, `{"content":[{"type":"text","text":"x"}]}`},
		{"not an object is left as it is", `[1]`, `[1]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(withoutRelatedTask(json.RawMessage(tc.in))); got != tc.want {
				t.Fatalf("got %s, want %s", got, tc.want)
			}
		})
	}
	ids := []struct {
		name, in, want string
		err            bool
	}{
		{"a task", `{"task":{"taskId":"t1","status":"working"}}`, "t1", false},
		{"a result instead", `{"content":[]}`, "", true},
		{"an empty id", `{"task":{"taskId":""}}`, "", true},
		{"not JSON", `{`, "", true},
	}
	for _, tc := range ids {
		t.Run(tc.name, func(t *testing.T) {
			got, err := createdTaskID(json.RawMessage(tc.in))
			if got != tc.want || (err != nil) != tc.err {
				t.Fatalf("got %q, %v", got, err)
			}
		})
	}
}

func FuzzTaskAnswers(f *testing.F) {
	for _, s := range []string{`{"task":{"taskId":"t"}}`, `{"_meta":{"io.modelcontextprotocol/related-task":{}},"content":[]}`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		_, _ = createdTaskID(json.RawMessage(in))
		out := withoutRelatedTask(json.RawMessage(in))
		if json.Valid([]byte(in)) && !json.Valid(out) {
			t.Fatalf("%q became %q", in, out)
		}
	})
}
