package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/supervise"
)

// A 2026-07-28 server that offers the Tasks extension
// (io.modelcontextprotocol/tasks) runs a tool as a task when the request's
// client capabilities declare the extension and the server so decides: the
// tools/call is answered with a task handle (resultType "task"); tasks/get
// tells the task's state and, once it completed, holds the tool's result;
// an input_required task lists its inputRequests, which tasks/update
// answers; tasks/cancel ends it. Every one of these requests declares the
// extension, and over HTTP names the task in Mcp-Name.
//
// The hub declares the extension on the calls of tools that run only as
// tasks (taskSupport "required"), which such a server refuses to run
// otherwise, and follows the task to its end: the client is answered with
// the tool's result, as for any call, and the task's questions are put to
// the calling client as a server's requests are. A call that ends first
// (cancelled, or past its timeout) cancels the task.

// The statuses of a task of the extension that the hub acts on (the
// other, "working", is waited on).
const (
	taskStatusInputRequired = "input_required"
	taskStatusCompleted     = "completed"
	taskStatusFailed        = "failed"
	taskStatusCancelled     = "cancelled"
)

// How often a task is polled: as the server asks, within these bounds.
const (
	defaultTaskPoll = 500 * time.Millisecond
	minTaskPoll     = 50 * time.Millisecond
	maxTaskPoll     = 5 * time.Second
)

// maxTaskInputs bounds the input requests of one task.
const maxTaskInputs = 50

// offersTasks is whether a 2026-07-28 connection's server offers the Tasks
// extension.
func offersTasks(conn *connection) bool {
	if conn.client == nil || !conn.era.modern {
		return false
	}
	return declaresTasks(conn.client.GetServerCapabilities())
}

// declaresTasks is whether server capabilities offer the Tasks extension.
func declaresTasks(caps mcpgo.ServerCapabilities) bool {
	_, ok := caps.Extensions[TasksExtension]
	return ok
}

// modernTaskState is a task handle (the answer to tools/call) or a
// detailed task (the answer to tasks/get).
type modernTaskState struct {
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage"`
	PollIntervalMs float64                    `json:"pollIntervalMs"`
	Result         json.RawMessage            `json:"result"`
	Error          *mcpgo.JSONRPCErrorDetails `json:"error"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests"`
}

// taskRef names a task in tasks/get, tasks/update and tasks/cancel.
type taskRef struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
}

// taskHandle reads a tools/call result that started a task.
func taskHandle(result json.RawMessage) (modernTaskState, bool) {
	var t modernTaskState
	if json.Unmarshal(result, &t) != nil || t.ResultType != "task" || t.TaskID == "" {
		return modernTaskState{}, false
	}
	return t, true
}

// followTask polls a task the server started for a call until it ends,
// answering its input requests through the calling client, and returns
// the tool's result. A task that failed or was cancelled by the server
// comes back as an isError result saying so; a call that ends first
// cancels the task.
func (d *downstream) followTask(ctx context.Context, conn *connection, t modernTaskState) (json.RawMessage, error) {
	e := conn.era.forClient(ClientFrom(ctx), true)
	id, poll := t.TaskID, taskPoll(t.PollIntervalMs, defaultTaskPoll)
	// answered are the input requests answered while the task has asked
	// without going back to work: a server may list them until it has
	// taken the answers. inputs counts every request answered.
	answered, inputs := map[string]bool{}, 0
	for {
		switch t.Status {
		case taskStatusCompleted:
			if len(t.Result) > 0 {
				return t.Result, nil
			}
			return json.Marshal(mcpgo.NewToolResultError("the task completed without a result"))
		case taskStatusFailed:
			return json.Marshal(mcpgo.NewToolResultError("the task failed: " + taskFailure(t)))
		case taskStatusCancelled:
			return json.Marshal(mcpgo.NewToolResultError("the server cancelled the task" + statusNote(t)))
		}
		if t.Status != taskStatusInputRequired {
			clear(answered)
		}
		if asked := unanswered(t, answered); len(asked) > 0 {
			if inputs += len(asked); inputs > maxTaskInputs {
				cancelTask(ctx, conn, e, id)
				return unansweredResult(fmt.Errorf("server %s asked for input more than %d times", d.spec.Name, maxTaskInputs))
			}
			if res, done, err := d.answerTask(ctx, conn, e, id, asked); done {
				return res, err
			}
			for k := range asked {
				answered[k] = true
			}
		} else if !supervise.Sleep(ctx, poll) {
			cancelTask(ctx, conn, e, id)
			return nil, ctx.Err()
		}
		raw, err := conn.requestIn(ctx, e, "tasks/get", taskRef{TaskID: id})
		if err != nil {
			if ctx.Err() != nil {
				cancelTask(ctx, conn, e, id)
			}
			return nil, err
		}
		t = modernTaskState{}
		if err := json.Unmarshal(raw, &t); err != nil {
			cancelTask(ctx, conn, e, id)
			return nil, fmt.Errorf("server %s: tasks/get: %w", d.spec.Name, err)
		}
		poll = taskPoll(t.PollIntervalMs, poll)
	}
}

// unanswered are the input requests of an input_required task that are
// not in answered.
func unanswered(t modernTaskState, answered map[string]bool) map[string]json.RawMessage {
	if t.Status != taskStatusInputRequired {
		return nil
	}
	var out map[string]json.RawMessage
	for k, v := range t.InputRequests {
		if !answered[k] {
			if out == nil {
				out = map[string]json.RawMessage{}
			}
			out[k] = v
		}
	}
	return out
}

// answerTask puts a task's input requests to the calling client and hands
// the answers to the task with tasks/update. done is set when the call
// ends here: the input could not be had (the task is cancelled and the
// result says why) or the update failed.
func (d *downstream) answerTask(ctx context.Context, conn *connection, e era, id string, requests map[string]json.RawMessage) (json.RawMessage, bool, error) {
	responses, err := d.fulfil(ctx, requests)
	if err != nil {
		cancelTask(ctx, conn, e, id)
		if ctx.Err() != nil {
			return nil, true, ctx.Err()
		}
		res, err := unansweredResult(err)
		return res, true, err
	}
	if _, err := conn.requestIn(ctx, e, "tasks/update", taskRef{TaskID: id, InputResponses: responses}); err != nil {
		if ctx.Err() != nil {
			cancelTask(ctx, conn, e, id)
		}
		return nil, true, err
	}
	return nil, false, nil
}

// taskPoll is the server's poll interval, bounded, or fallback when it
// names none.
func taskPoll(ms float64, fallback time.Duration) time.Duration {
	if ms <= 0 {
		return fallback
	}
	ms = min(ms, float64(maxTaskPoll/time.Millisecond)) // no overflow below
	return max(time.Duration(ms*float64(time.Millisecond)), minTaskPoll)
}

// taskFailure is what a failed task says of its error.
func taskFailure(t modernTaskState) string {
	switch {
	case t.Error != nil && t.Error.Message != "":
		return fmt.Sprintf("%s (code %d)", t.Error.Message, t.Error.Code)
	case t.StatusMessage != "":
		return t.StatusMessage
	}
	return "no reason given"
}

func statusNote(t modernTaskState) string {
	if t.StatusMessage == "" {
		return ""
	}
	return ": " + t.StatusMessage
}
