package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A 2026-07-28 client that declares the Tasks extension gets a task
// handle for orchestrate at once, reads the first step while the second is
// still to come, and reads the same result a plain call returns once the
// task has completed.
func TestModernTaskRunsAndShowsItsSteps(t *testing.T) {
	for _, tr := range taskPeers {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			cond := newSteppingConductor()
			p := tr.connect(t, conductorServer(t, cond))

			task := startTask(t, p, OrchestrateToolName, map[string]any{"task": "add 40 and 2"})
			runID := await(ctx, t, cond.reached, "the episode's first step")
			running := awaitWireStatus(ctx, t, p, task.TaskID, taskWorking)
			for running.StatusMessage == "" && ctx.Err() == nil {
				running = getWireTask(t, p, task.TaskID)
			}
			if running.StatusMessage != firstStepMessage {
				t.Fatalf("running task says %q, want %q", running.StatusMessage, firstStepMessage)
			}
			var partial TaskTrace
			if err := json.Unmarshal(running.Meta[TaskTraceMetaKey], &partial); err != nil || partial.RunID != runID ||
				len(partial.Steps) != 1 || partial.Steps[0].Model != "orch-8b" {
				t.Fatalf("trace while running %+v (%v), want run %s with its model step", partial, err, runID)
			}

			close(cond.release)
			done := awaitWireStatus(ctx, t, p, task.TaskID, taskCompleted)
			if done.Result == nil || done.Result.IsError || done.Result.ResultType != mcpgo.ResultTypeComplete {
				t.Fatalf("completed task's result %+v, want a result of resultType complete", done.Result)
			}
			trace := decodeTrace(t, done.Result.StructuredContent)
			if trace.RunID != runID || trace.Status != "answered" || trace.Answer != "42" || len(trace.Steps) != 4 {
				t.Fatalf("task result trace %+v", trace)
			}
			if text := resultText(done.Result); !strings.HasPrefix(text, "42\n\n[answered · 2 turns") {
				t.Errorf("task result text %q", text)
			}
		})
	}
}

// tasks/cancel ends the episode and the task reads as cancelled; a second
// cancel is acknowledged alike (cancel is idempotent) and leaves it
// cancelled, and a cancel of a task that never was is refused with
// invalid params (HTTP 400).
func TestModernTaskCancel(t *testing.T) {
	for _, tr := range taskPeers {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			cond := newSteppingConductor()
			p := tr.connect(t, conductorServer(t, cond))

			task := startTask(t, p, ResearchToolName, map[string]any{"question": "why?"})
			await(ctx, t, cond.reached, "the episode's first step")
			if status, reply := taskRequest(t, p, "tasks/cancel", task.TaskID, nil); status != http.StatusOK || reply.Error != nil {
				t.Fatalf("tasks/cancel: %d %+v", status, reply.Error)
			}
			if err := await(ctx, t, cond.stopped, "the episode to stop"); err == nil {
				t.Fatal("the episode stopped without its context ending")
			}
			if got := getWireTask(t, p, task.TaskID); got.Status != taskCancelled || got.Result != nil {
				t.Fatalf("cancelled task reads %+v", got)
			}
			status, reply := taskRequest(t, p, "tasks/cancel", task.TaskID, nil)
			if status != http.StatusOK || reply.Error != nil || string(reply.Result) == "" ||
				!strings.Contains(string(reply.Result), `"resultType":"complete"`) || strings.Contains(string(reply.Result), `"taskId"`) {
				t.Fatalf("a second cancel: %d %s %+v, want the same empty ack", status, reply.Result, reply.Error)
			}
			if got := getWireTask(t, p, task.TaskID); got.Status != taskCancelled {
				t.Fatalf("after a second cancel the task reads %+v", got)
			}
			status, reply = taskRequest(t, p, "tasks/cancel", "task-nosuch", nil)
			if reply.Error == nil || reply.Error.Code != mcpgo.INVALID_PARAMS || !strings.Contains(reply.Error.Message, `no task "task-nosuch"`) {
				t.Errorf("an unknown task: %+v, want invalid params naming it", reply.Error)
			}
			if tr.name != "stdio" && status != http.StatusBadRequest {
				t.Errorf("an unknown task: HTTP %d, want 400", status)
			}
		})
	}
}

// A downstream's (here the conductor's) request to the client during a
// task makes the task input_required with the request under a key;
// tasks/update with the answer moves it on, and the answer reaches the
// episode.
func TestModernTaskAsksTheClient(t *testing.T) {
	for _, tr := range taskPeers {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			p := tr.connect(t, testServer(t, newFakeCatalog(), Options{Conductor: askingConductor{}}))

			task := startTask(t, p, OrchestrateToolName, map[string]any{"task": "whose?"})
			asking := awaitWireStatus(ctx, t, p, task.TaskID, taskInputRequired)
			if len(asking.InputRequests) != 1 {
				t.Fatalf("input requests %v, want one", asking.InputRequests)
			}
			var key string
			for k, raw := range asking.InputRequests {
				var req struct {
					Method string `json:"method"`
					Params struct {
						Message string `json:"message"`
					} `json:"params"`
				}
				if err := json.Unmarshal(raw, &req); err != nil || req.Method != string(mcpgo.MethodElicitationCreate) ||
					req.Params.Message != "whose task is it?" {
					t.Fatalf("input request %s: %s (%v)", k, raw, err)
				}
				key = k
			}
			if status, reply := taskRequest(t, p, "tasks/update", task.TaskID, map[string]any{"inputResponses": map[string]any{
				key: map[string]any{"action": "accept", "content": map[string]any{"name": "dana"}}}}); status != http.StatusOK || reply.Error != nil {
				t.Fatalf("tasks/update: %d %+v", status, reply.Error)
			}
			done := awaitWireStatus(ctx, t, p, task.TaskID, taskCompleted)
			if trace := decodeTrace(t, done.Result.StructuredContent); trace.Answer != "done for dana" {
				t.Fatalf("answer %q, want the elicited name in it", trace.Answer)
			}
			if status, reply := taskRequest(t, p, "tasks/update", task.TaskID, nil); reply.Error == nil ||
				reply.Error.Code != mcpgo.INVALID_PARAMS || (tr.name != "stdio" && status != http.StatusBadRequest) {
				t.Fatalf("tasks/update without inputResponses: %d %+v, want invalid params", status, reply.Error)
			}
		})
	}
}

// A 2026-07-28 client that does not declare the extension, and a call
// with arguments the tool refuses, get ordinary results.
func TestModernCallWithoutTheExtensionIsPlain(t *testing.T) {
	cond := newSteppingConductor()
	close(cond.release)
	p := taskPeers[0].connect(t, conductorServer(t, cond))
	cases := []struct {
		name    string
		args    map[string]any
		tasks   bool
		wantErr bool
	}{
		{"no extension declared", map[string]any{"task": "add 40 and 2"}, false, false},
		{"an empty task with the extension", map[string]any{"task": " "}, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, reply := p.send(t, "tools/call", modernParams(map[string]any{"name": OrchestrateToolName, "arguments": c.args}, c.tasks))
			if status != http.StatusOK || reply.Error != nil {
				t.Fatalf("%d %+v", status, reply.Error)
			}
			var res mcpgo.CallToolResult
			if err := json.Unmarshal(reply.Result, &res); err != nil {
				t.Fatal(err)
			}
			if res.ResultType != mcpgo.ResultTypeComplete || res.IsError != c.wantErr {
				t.Fatalf("result %s, want a complete result (error %v)", reply.Result, c.wantErr)
			}
		})
	}
}

// server/discover (2026-07-28) declares the Tasks extension and not the
// tasks capability of 2025-11-25, which the extension replaces; an
// initialize (2025-11-25) still declares that capability.
func TestModernTasksExtensionIsDeclared(t *testing.T) {
	for _, tr := range taskPeers {
		t.Run(tr.name, func(t *testing.T) {
			p := tr.connect(t, conductorServer(t, newSteppingConductor()))
			status, reply := p.send(t, "server/discover", modernParams(map[string]any{}, false))
			var res struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			var ext map[string]json.RawMessage
			if status != http.StatusOK || json.Unmarshal(reply.Result, &res) != nil ||
				json.Unmarshal(res.Capabilities["extensions"], &ext) != nil || string(ext[TasksExtension]) != "{}" {
				t.Fatalf("server/discover: %d %s", status, reply.Result)
			}
			if _, ok := res.Capabilities["tasks"]; ok {
				t.Fatalf("server/discover declares the 2025-11-25 tasks capability: %s", reply.Result)
			}
			if tr.name != "stdio" {
				return // this peer's requests carry 2026-07-28 headers
			}
			status, reply = p.send(t, "initialize", map[string]any{"protocolVersion": mcpgo.ProtocolVersion20251125,
				"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "wire", "version": "1"}})
			if status != http.StatusOK || json.Unmarshal(reply.Result, &res) != nil || res.Capabilities["tasks"] == nil {
				t.Fatalf("initialize: %d %s, want the tasks capability", status, reply.Result)
			}
		})
	}
}

// A task past its time to live is cancelled and forgotten.
func TestModernTaskEndsWithItsTTL(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cond := newSteppingConductor()
	p := taskPeers[0].connect(t, testServer(t, newFakeCatalog(), Options{Conductor: cond, Events: cond.bus,
		TaskTTL: 50 * time.Millisecond}))
	task := startTask(t, p, OrchestrateToolName, map[string]any{"task": "slow"})
	if err := await(ctx, t, cond.stopped, "the episode to stop at the TTL"); err == nil {
		t.Fatal("the episode stopped without its context ending")
	}
	for ctx.Err() == nil {
		_, reply := taskRequest(t, p, "tasks/get", task.TaskID, nil)
		if reply.Error != nil && strings.Contains(reply.Error.Message, "time to live") {
			return
		}
	}
	t.Fatal("the task was still kept after its TTL")
}

// tasks/get, tasks/update and tasks/cancel from a request that does not
// declare the Tasks extension are refused with the missing required client
// capability error naming it (HTTP 400), even for a task that exists.
func TestModernTaskMethodsNeedTheExtension(t *testing.T) {
	for _, tr := range taskPeers {
		t.Run(tr.name, func(t *testing.T) {
			cond := newSteppingConductor()
			defer close(cond.release)
			p := tr.connect(t, conductorServer(t, cond))
			task := startTask(t, p, OrchestrateToolName, map[string]any{"task": "add 40 and 2"})
			for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
				params := map[string]any{"taskId": task.TaskID, "inputResponses": map[string]any{}}
				status, reply := p.send(t, method, modernParams(params, false))
				if reply.Error == nil || reply.Error.Code != mcpgo.MISSING_REQUIRED_CLIENT_CAPABILITY {
					t.Fatalf("%s: %d %s %+v, want error %d", method, status, reply.Result, reply.Error, mcpgo.MISSING_REQUIRED_CLIENT_CAPABILITY)
				}
				data, _ := json.Marshal(reply.Error.Data)
				var d struct {
					Required struct {
						Extensions map[string]json.RawMessage `json:"extensions"`
					} `json:"requiredCapabilities"`
				}
				if err := json.Unmarshal(data, &d); err != nil || d.Required.Extensions[TasksExtension] == nil {
					t.Errorf("%s: error data %s (%v), want requiredCapabilities naming %s", method, data, err, TasksExtension)
				}
				if tr.name != "stdio" && status != http.StatusBadRequest {
					t.Errorf("%s: HTTP %d, want 400", method, status)
				}
			}
			if got := getWireTask(t, p, task.TaskID); got.Status != taskWorking {
				t.Fatalf("the refused requests changed the task: %+v", got)
			}
		})
	}
}
