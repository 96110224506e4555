package mcp

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A 2025-11-25 task request for a tool that declares no task support is
// refused with method not found on every transport, and the tool is not
// run; the conductor's tools, which declare it, still start tasks.
// (mcp-go's in-process transport, which no client of toolhub uses, has no
// transport of toolhub's to carry the code: it gets an internal error.)
func TestTaskRequestForAToolWithoutTaskSupport(t *testing.T) {
	for _, tr := range taskTransports[1:] {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			cond := newSteppingConductor()
			defer close(cond.release)
			cat := newFakeCatalog()
			c := tr.connect(t, testServer(t, cat, Options{Conductor: cond, Events: cond.bus}))
			for _, tool := range []string{"srv__work", FindToolsName} {
				// An id of its own: mcp-go's stdio client forgets a reused id
				// right after delivering its answer, and may forget the
				// next request's waiting for the same id.
				resp, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
					JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId("refused-" + tool), Method: string(mcpgo.MethodToolsCall),
					Params: map[string]any{"name": tool, "arguments": map[string]any{"query": "work"}, "task": map[string]any{}},
				})
				if err != nil {
					t.Fatalf("%s: %v", tool, err)
				}
				if resp.Error == nil || resp.Error.Code != mcpgo.METHOD_NOT_FOUND || !strings.Contains(resp.Error.Message, "does not run as a task") {
					t.Fatalf("%s: result %s, error %+v; want method not found saying why", tool, resp.Result, resp.Error)
				}
			}
			cat.mu.Lock()
			calls := cat.calls
			cat.mu.Unlock()
			if len(calls) != 0 {
				t.Fatalf("the refused task request reached the downstream: %v", calls)
			}
			if task := callAsTask(ctx, t, c, OrchestrateToolName, map[string]any{"task": "add 40 and 2"}); task.TaskId == "" {
				t.Fatal("orchestrate started no task")
			}
		})
	}
}

// A browser's retry naming no waiting call goes through mcp-go's
// handling, not the short path, and still gets invalid params with HTTP
// 400 saying why, not an internal error.
func TestRefusalOfABrowsersCall(t *testing.T) {
	h := testHub(t, nil, inProcess("interviewer", interviewer(nil)))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	meta := `"_meta":{"` + mcpgo.MetaKeyProtocolVersion + `":"` + mcpgo.ProtocolVersion20260728 + `","` +
		mcpgo.MetaKeyClientCapabilities + `":{"sampling":{}}}`
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"interviewer__interview",` +
		`"arguments":{"topic":"raw"},` + meta + `,"requestState":"toolhub-nosuchstate","inputResponses":{}}}`
	headers := modernHeaders("tools/call")
	headers["Mcp-Name"] = "interviewer__interview"
	headers["Origin"] = "http://localhost"
	resp, raw := rawRequest(t, http.MethodPost, url, headers, body)
	data := sseData(raw)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(data, `"code":-32602`) || !strings.Contains(data, "requestState names no call") {
		t.Fatalf("status %s, body %s; want 400 and invalid params saying why", resp.Status, raw)
	}
}
