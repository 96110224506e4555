package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A tool whose execution.taskSupport is "required" (protocol 2025-11-25)
// refuses a plain tools/call: it runs only as a task. The hub runs such a
// call as a task on the server and answers the client with the tool's
// result, as for any call: the client need not know tasks, and the hub
// lists the tool without "execution" (mcp/reexport.go). The call asks for a
// task that lives as long as the call may, then waits on tasks/result,
// which the server answers once the task has ended (sending, on the way,
// whatever it has queued for the client, elicitations included, which are
// answered as during any call). A call that ends first cancels the task.

// relatedTaskKey is the related-task key as it appears in a message.
var relatedTaskKey = []byte(`"` + mcpgo.RelatedTaskMetaKey + `"`)

// taskCancelWait bounds the tasks/cancel sent for a call that ended before
// its task.
const taskCancelWait = 5 * time.Second

// errNoTaskCreated is a task-augmented tools/call answered without a task
// (with the tool's result, when the server ran it at once).
var errNoTaskCreated = errors.New("the answer holds no task")

// taskRequired is whether a listed tool runs only as a task.
func taskRequired(raw json.RawMessage) bool {
	var t struct {
		Execution struct {
			TaskSupport string `json:"taskSupport"`
		} `json:"execution"`
	}
	return json.Unmarshal(raw, &t) == nil && t.Execution.TaskSupport == string(mcpgo.TaskSupportRequired)
}

// taskTools are the names of the tools that run only as tasks; nil when
// none does.
func taskTools(tools []RawTool) *map[string]bool {
	var out map[string]bool
	for _, t := range tools {
		if taskRequired(t.Raw) {
			if out == nil {
				out = map[string]bool{}
			}
			out[t.Name] = true
		}
	}
	if out == nil {
		return nil
	}
	return &out
}

// runsAsTask is whether a call of tool goes to conn as a task: the tool
// requires it and the server, on a 2025-11-25 connection, says it takes
// tools/call as a task.
func runsAsTask(conn *connection, required bool) bool {
	return required && !conn.era.modern && conn.client != nil && takesTaskCalls(conn.client.GetServerCapabilities())
}

// takesTaskCalls is whether capabilities say tools/call runs as a task of
// 2025-11-25.
func takesTaskCalls(caps mcpgo.ServerCapabilities) bool {
	t := caps.Tasks
	return t != nil && t.Requests != nil && t.Requests.Tools != nil && t.Requests.Tools.Call != nil
}

// legacyTasksOnly is whether a 2026-07-28 connection lists task-only tools
// that it cannot run: the server takes tools/call as a task of 2025-11-25
// (an mcp-go server says so in both revisions) but offers no Tasks
// extension, and in 2026-07-28 nothing reads such a task's result (mcp-go
// refuses tasks/result there). Such a server is spoken to in 2025-11-25.
func legacyTasksOnly(conn *connection, tools []RawTool) bool {
	if conn.client == nil || taskTools(tools) == nil {
		return false
	}
	caps := conn.client.GetServerCapabilities()
	return takesTaskCalls(caps) && !declaresTasks(caps)
}

// TasksExtension is the id of the Tasks extension of 2026-07-28, in
// capabilities and _meta; the one place it is spelled.
const TasksExtension = "io.modelcontextprotocol/tasks"

// taskCallRequest is a tools/call asking to run as a task.
type taskCallRequest struct {
	*toolCallRequest
	Task taskParams `json:"task"`
}

type taskParams struct {
	TTL int64 `json:"ttl"`
}

// callAsTask runs the call as a task kept for ttl and returns the tool's
// result.
func (d *downstream) callAsTask(ctx context.Context, conn *connection, params *toolCallRequest, ttl time.Duration) (json.RawMessage, error) {
	created, err := createTask(ctx, conn, &taskCallRequest{toolCallRequest: params, Task: taskParams{TTL: ttl.Milliseconds()}})
	if err != nil {
		return nil, err
	}
	id, err := createdTaskID(created)
	switch {
	case errors.Is(err, errNoTaskCreated) && isToolResult(created):
		return created, nil // the server ran it at once
	case err != nil:
		return nil, fmt.Errorf("server %s: call %s as a task: %w", d.spec.Name, params.Name, err)
	}
	result, err := conn.request(ctx, "tasks/result", map[string]string{"taskId": id})
	if err != nil {
		if ctx.Err() != nil {
			cancelTask(ctx, conn, conn.era, id)
		}
		return nil, err
	}
	if !isToolResult(result) {
		return endedWithoutResult(ctx, conn, id), nil
	}
	return withoutRelatedTask(result), nil
}

// createTask sends the task-augmented tools/call. A call that ends while
// the server creates the task returns at once, and the task the server
// then names is cancelled: the server may have made it already, and
// nothing else would stop it. The request itself lasts until the call's
// deadline.
func createTask(ctx context.Context, conn *connection, params *taskCallRequest) (json.RawMessage, error) {
	type answer struct {
		raw json.RawMessage
		err error
	}
	answered := make(chan answer, 1)
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(taskCancelWait)
	}
	go func() {
		cctx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
		defer cancel()
		raw, err := conn.request(cctx, "tools/call", params)
		answered <- answer{raw, err}
	}()
	select {
	case a := <-answered:
		return a.raw, a.err
	case <-ctx.Done():
		go func() {
			a := <-answered
			if id, err := createdTaskID(a.raw); a.err == nil && err == nil {
				cancelTask(ctx, conn, conn.era, id)
			}
		}()
		return nil, ctx.Err()
	}
}

// endedWithoutResult is the tool failure a task that ended without a
// tool's result (cancelled, say, with nothing stored) comes back as: its
// status and status message, as tasks/get has them.
func endedWithoutResult(ctx context.Context, conn *connection, id string) json.RawMessage {
	text := "the task ended without a result"
	if got, err := conn.request(ctx, "tasks/get", map[string]string{"taskId": id}); err == nil {
		var t struct {
			Status        string `json:"status"`
			StatusMessage string `json:"statusMessage"`
		}
		if json.Unmarshal(got, &t) == nil && t.Status != "" {
			text = "the task ended " + t.Status + " without a result"
			if t.StatusMessage != "" {
				text += ": " + t.StatusMessage
			}
		}
	}
	out, _ := json.Marshal(mcpgo.NewToolResultError(text))
	return out
}

// createdTaskID reads the task id of a CreateTaskResult.
func createdTaskID(created json.RawMessage) (string, error) {
	var r struct {
		Task *struct {
			TaskID string `json:"taskId"`
		} `json:"task"`
	}
	if err := json.Unmarshal(created, &r); err != nil {
		return "", err
	}
	if r.Task == nil || r.Task.TaskID == "" {
		return "", errNoTaskCreated
	}
	return r.Task.TaskID, nil
}

// isToolResult is whether a result is a CallToolResult: it has content.
func isToolResult(result json.RawMessage) bool {
	var r struct {
		Content json.RawMessage `json:"content"`
	}
	return json.Unmarshal(result, &r) == nil && len(r.Content) > 0 && string(r.Content) != "null"
}

// cancelTask asks the server to stop a task whose call has ended, off the
// call's own context, in era e: the connection's, or for a task of the
// Tasks extension the era declaring it.
func cancelTask(ctx context.Context, conn *connection, e era, id string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), taskCancelWait)
	defer cancel()
	_, _ = conn.requestIn(cctx, e, "tasks/cancel", taskRef{TaskID: id})
}

// withoutRelatedTask drops the related-task key a server stamps on a
// task's result and on the requests the task sends the client: the tasks a
// server runs for the hub are the hub's own (toolhub's own tasks name
// theirs in mcp/client.go), so the key names nothing the client knows.
func withoutRelatedTask(result json.RawMessage) json.RawMessage {
	if !bytes.Contains(result, relatedTaskKey) {
		return result // most messages: nothing to decode
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(result, &fields) != nil || fields["_meta"] == nil {
		return result
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(fields["_meta"], &meta) != nil {
		return result
	}
	if _, ok := meta[mcpgo.RelatedTaskMetaKey]; !ok {
		return result
	}
	delete(meta, mcpgo.RelatedTaskMetaKey)
	if len(meta) == 0 {
		delete(fields, "_meta")
	} else if b, err := json.Marshal(meta); err == nil {
		fields["_meta"] = b
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return result
	}
	return out
}
