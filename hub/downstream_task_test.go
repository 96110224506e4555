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
	srv := mcpserver.NewMCPServer("tasks", "1", mcpserver.WithTaskCapabilities(true, true, true))
	srv.AddTool(mcpgo.NewTool("research", mcpgo.WithString("topic"), mcpgo.WithTaskSupport(mcpgo.TaskSupportRequired)), handler)
	ts := httptest.NewServer(mcpserver.NewStreamableHTTPServer(srv))
	t.Cleanup(ts.Close)
	return startHub(t, ServerSpec{Name: "tasks", Transport: TransportHTTP, URL: ts.URL + "/mcp",
		Locality: LocalityLocal, Protocol: ProtocolLegacy})
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
