package mcp

import (
	"context"
	"net/http"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// rootsConductor answers with the calling client's roots.
type rootsConductor struct{}

func (rootsConductor) Run(ctx context.Context, req conductor.Request) (*conductor.Run, error) {
	run := &conductor.Run{ID: req.RunID, Task: req.Task, Mode: req.Mode, Policy: "orchestrator"}
	client := hub.ClientFrom(ctx)
	if client == nil {
		run.Status, run.Error = conductor.RunFailed, "no client to ask"
		return run, nil
	}
	raw, err := client.ListRoots(ctx)
	if err != nil {
		run.Status, run.Error = conductor.RunFailed, err.Error()
		return run, nil
	}
	run.Status, run.Answer = conductor.RunAnswered, string(raw)
	return run, nil
}

// A task asks its 2026-07-28 client for roots as a call does: over stdio a
// client that declared roots with listChanged is asked once, its next task
// using what it said; over HTTP, where a request names no connection, every
// task asks.
func TestModernTaskRemembersStdioRoots(t *testing.T) {
	for _, tr := range taskPeers {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			p := tr.connect(t, testServer(t, newFakeCatalog(), Options{Conductor: rootsConductor{}}))
			asked := 0
			for range 2 {
				params := modernParams(map[string]any{"name": OrchestrateToolName, "arguments": map[string]any{"task": "where?"}}, true)
				params["_meta"].(map[string]any)[mcpgo.MetaKeyClientCapabilities].(map[string]any)["roots"] = map[string]any{"listChanged": true}
				status, reply := p.send(t, "tools/call", params)
				task := taskOf(t, status, reply)
				got := awaitEnd(ctx, t, p, task.TaskID)
				if got.Status == taskInputRequired {
					asked++
					answers := map[string]any{}
					for key := range got.InputRequests {
						answers[key] = map[string]any{"roots": []map[string]string{{"uri": "file:///proj"}}}
					}
					if status, reply := taskRequest(t, p, "tasks/update", task.TaskID, map[string]any{"inputResponses": answers}); status != http.StatusOK || reply.Error != nil {
						t.Fatalf("tasks/update: %d %+v", status, reply.Error)
					}
					got = awaitWireStatus(ctx, t, p, task.TaskID, taskCompleted)
				}
				if trace := decodeTrace(t, got.Result.StructuredContent); trace.Answer != `{"roots":[{"uri":"file:///proj"}]}` {
					t.Fatalf("answer %q, want the client's roots", trace.Answer)
				}
			}
			want := 2
			if tr.name == "stdio" {
				want = 1
			}
			if asked != want {
				t.Fatalf("asked for roots %d times in two tasks, want %d", asked, want)
			}
		})
	}
}

// awaitEnd reads the task until it completes or waits for input.
func awaitEnd(ctx context.Context, t *testing.T, p wirePeer, id string) wireTask {
	t.Helper()
	for ctx.Err() == nil {
		if task := getWireTask(t, p, id); task.Status == taskCompleted || task.Status == taskInputRequired {
			return task
		}
	}
	t.Fatalf("task %s never completed nor asked: %v", id, ctx.Err())
	return wireTask{}
}
