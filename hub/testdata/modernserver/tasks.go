package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// The Tasks extension of 2026-07-28 as its specification and conformance
// suite describe it, served in front of mcp-go, which has none, for one
// tool, "report" (taskSupport "required"):
//
//   - a tools/call of report whose _meta client capabilities declare the
//     extension is answered with a task handle (resultType "task"); one
//     without it goes on to mcp-go, which refuses it;
//   - tasks/get answers the detailed task; the report completes on the
//     second tasks/get ("report on TOPIC"), after asking the client whom
//     it is for when its argument "ask" is true (input_required, with an
//     elicitation under inputRequests, answered by tasks/update: "report on
//     TOPIC for NAME"); the topic
//     "crash" fails with a JSON-RPC error, "forever" never ends;
//   - tasks/cancel cancels it;
//   - tasks/* without the extension declared is refused with -32021, and
//     with an Mcp-Name header that is not the task id with -32020.
//
// The tool "taskstates" lists every task as "TOPIC STATUS", one per line.

// tasksExtension is the extension's id.
const tasksExtension = "io.modelcontextprotocol/tasks"

type taskLayer struct {
	mu    sync.Mutex
	tasks map[string]*fixtureTask
}

type fixtureTask struct {
	id, topic, status string
	ask               bool
	reader            string // the client's answer
	gets              int
	created           time.Time
}

func newTaskLayer() *taskLayer { return &taskLayer{tasks: map[string]*fixtureTask{}} }

// addTools adds report (which mcp-go refuses to run: only the layer does)
// and taskstates.
func (l *taskLayer) addTools(srv *mcpserver.MCPServer) {
	srv.AddTool(mcpgo.NewTool("report", mcpgo.WithString("topic"), mcpgo.WithBoolean("ask"),
		mcpgo.WithTaskSupport(mcpgo.TaskSupportRequired)),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultError("report runs only as a task of the Tasks extension"), nil
		})
	srv.AddTool(mcpgo.NewTool("taskstates"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		l.mu.Lock()
		defer l.mu.Unlock()
		lines := make([]string, 0, len(l.tasks))
		for _, t := range l.tasks {
			lines = append(lines, t.topic+" "+t.status)
		}
		sort.Strings(lines)
		return mcpgo.NewToolResultText(strings.Join(lines, "\n")), nil
	})
}

// rpc is the part of a request the layer reads.
type rpc struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string `json:"name"`
		Arguments struct {
			Topic string `json:"topic"`
			Ask   bool   `json:"ask"`
		} `json:"arguments"`
		TaskID         string                     `json:"taskId"`
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		Meta           struct {
			Capabilities struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
	} `json:"params"`
}

func (r *rpc) declares() bool {
	_, ok := r.Params.Meta.Capabilities.Extensions[tasksExtension]
	return ok
}

// answer is the extension's answer to req (an HTTP status, "result" or
// "error", and its value), or handled false for a request it passes on.
// name is the Mcp-Name header, which a request over HTTP carries (checked
// when http is set).
func (l *taskLayer) answer(req *rpc, name string, http bool) (status int, key string, value any, handled bool) {
	switch {
	case req.Method == "tools/call" && req.Params.Name == "report" && req.declares():
		return 200, "result", l.create(req), true
	case !strings.HasPrefix(req.Method, "tasks/"):
		return 0, "", nil, false
	case !req.declares():
		return 400, "error", map[string]any{"code": -32021,
			"message": "missing required client capability", "data": map[string]any{
				"requiredCapabilities": map[string]any{"extensions": map[string]any{tasksExtension: map[string]any{}}}}}, true
	case http && name != req.Params.TaskID:
		return 400, "error", map[string]any{"code": -32020,
			"message": fmt.Sprintf("Mcp-Name %q is not the task %q", name, req.Params.TaskID)}, true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.tasks[req.Params.TaskID]
	if t == nil {
		return 400, "error", map[string]any{"code": -32602, "message": "unknown task"}, true
	}
	switch req.Method {
	case "tasks/get":
		return 200, "result", t.get(), true
	case "tasks/update":
		t.update(req.Params.InputResponses)
	case "tasks/cancel":
		if !terminal(t.status) {
			t.status = "cancelled"
		}
	default:
		return 200, "error", map[string]any{"code": -32601, "message": "Method not found"}, true
	}
	return 200, "result", map[string]any{"resultType": "complete"}, true
}

func (l *taskLayer) create(req *rpc) map[string]any {
	var b [8]byte
	_, _ = rand.Read(b[:])
	t := &fixtureTask{id: hex.EncodeToString(b[:]), topic: req.Params.Arguments.Topic, ask: req.Params.Arguments.Ask,
		status: "working", created: time.Now()}
	l.mu.Lock()
	l.tasks[t.id] = t
	l.mu.Unlock()
	out := t.envelope()
	out["resultType"] = "task"
	return out
}

func (t *fixtureTask) envelope() map[string]any {
	at := t.created.UTC().Format(time.RFC3339Nano)
	return map[string]any{"taskId": t.id, "status": t.status, "createdAt": at, "lastUpdatedAt": at,
		"ttlMs": 60000, "pollIntervalMs": 20}
}

// get advances the task and answers the detailed task.
func (t *fixtureTask) get() map[string]any {
	t.gets++
	if t.status == "working" {
		switch {
		case t.ask && t.reader == "":
			t.status = "input_required"
		case t.topic == "forever":
		case t.gets >= 2 && t.topic == "crash":
			t.status = "failed"
		case t.gets >= 2:
			t.status = "completed"
		}
	}
	out := t.envelope()
	out["resultType"] = "complete"
	switch t.status {
	case "input_required":
		out["inputRequests"] = map[string]any{"reader": map[string]any{"method": "elicitation/create", "params": map[string]any{
			"message": "Who is it for?", "requestedSchema": map[string]any{"type": "object",
				"properties": map[string]any{"name": map[string]any{"type": "string"}}}}}}
	case "completed":
		text := "report on " + t.topic
		if t.reader != "" {
			text += " for " + t.reader
		}
		out["result"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}, "isError": false}
	case "failed":
		out["error"] = map[string]any{"code": -32603, "message": "the report crashed"}
	}
	return out
}

// update takes the answer to the question whom the report is for.
func (t *fixtureTask) update(responses map[string]json.RawMessage) {
	var answer struct {
		Action  string `json:"action"`
		Content struct {
			Name string `json:"name"`
		} `json:"content"`
	}
	if t.status != "input_required" || json.Unmarshal(responses["reader"], &answer) != nil ||
		answer.Action != "accept" || answer.Content.Name == "" {
		return
	}
	t.reader, t.status, t.gets = answer.Content.Name, "working", 0
}

func terminal(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// message is a JSON-RPC response.
func message(id json.RawMessage, key string, value any) []byte {
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, key: value})
	return out
}
