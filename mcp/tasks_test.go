package mcp

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

const firstStepMessage = "step 1 (turn 1): model orchestrator → orch-8b · local · 5 ms · $0.000000"

// An orchestrate task answers with its handle at once, shows its first
// step while the second is still to come, and ends with the same result a
// synchronous call returns.
func TestTaskOrchestrateTraceWhileRunning(t *testing.T) {
	for _, tr := range taskTransports {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			cond := newSteppingConductor()
			c := tr.connect(t, conductorServer(t, cond))

			task := callAsTask(ctx, t, c, OrchestrateToolName, map[string]any{"task": "add 40 and 2"})
			runID := await(ctx, t, cond.reached, "the episode's first step")

			running := awaitStep(ctx, t, c, task.TaskId)
			if running.Status != mcpgo.TaskStatusWorking || running.StatusMessage != firstStepMessage {
				t.Fatalf("running task %q %q, want working %q", running.Status, running.StatusMessage, firstStepMessage)
			}
			partial, ok := taskTrace(t, running)
			if !ok || partial.RunID != runID || len(partial.Steps) != 1 || partial.Steps[0].Model != "orch-8b" {
				t.Fatalf("trace while running %+v (present %v), want run %s with its model step", partial, ok, runID)
			}
			listed, err := c.ListTasks(ctx, mcpgo.ListTasksRequest{})
			if err != nil {
				t.Fatal(err)
			}
			if len(listed.Tasks) != 1 || listed.Tasks[0].TaskId != task.TaskId || listed.Tasks[0].StatusMessage != firstStepMessage {
				t.Fatalf("tasks/list %+v, want the one task with its latest step", listed.Tasks)
			}

			close(cond.release)
			var get mcpgo.GetTaskRequest
			get.Params.TaskId = task.TaskId
			done, err := c.WaitForTask(ctx, get, 5*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			if done.Status != mcpgo.TaskStatusCompleted {
				t.Fatalf("finished task %q %q, want completed", done.Status, done.StatusMessage)
			}
			var resReq mcpgo.TaskResultRequest
			resReq.Params.TaskId = task.TaskId
			res, err := c.TaskResult(ctx, resReq)
			if err != nil {
				t.Fatal(err)
			}
			trace := decodeTrace(t, res.StructuredContent)
			if res.IsError || trace.RunID != runID || trace.Status != "answered" || trace.Answer != "42" || len(trace.Steps) != 4 {
				t.Fatalf("task result error %v, trace %+v", res.IsError, trace)
			}
			if text := resultText(&mcpgo.CallToolResult{Content: res.Content}); !strings.HasPrefix(text, "42\n\n[answered · 2 turns") {
				t.Errorf("task result text %q", text)
			}
		})
	}
}

// tasks/cancel ends the episode's context: the episode stops, the task
// stays cancelled once the handler returns, and its trace is gone with it.
func TestTaskCancelStopsEpisode(t *testing.T) {
	for _, tr := range taskTransports {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			cond := newSteppingConductor()
			srv := conductorServer(t, cond)
			c := tr.connect(t, srv)

			task := callAsTask(ctx, t, c, ResearchToolName, map[string]any{"question": "why?"})
			await(ctx, t, cond.reached, "the episode's first step")
			var req mcpgo.CancelTaskRequest
			req.Params.TaskId = task.TaskId
			cancelled, err := c.CancelTask(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if cancelled.Status != mcpgo.TaskStatusCancelled {
				t.Fatalf("tasks/cancel answered %q, want cancelled", cancelled.Status)
			}
			if err := await(ctx, t, cond.stopped, "the episode stopping"); err == nil {
				t.Fatal("the episode stopped without its context ending")
			}
			awaitForgotten(ctx, t, srv, task.TaskId)
			if got := getTask(ctx, t, c, task.TaskId); got.Status != mcpgo.TaskStatusCancelled {
				t.Fatalf("after the episode returned the task is %q, want cancelled", got.Status)
			}
		})
	}
}

// A task whose TTL passes is forgotten by mcp-go, and its episode ends.
func TestTaskTTLEndsEpisode(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cond := newSteppingConductor()
	srv := conductorServer(t, cond)
	c := taskTransports[0].connect(t, srv)
	task := callAsTaskWith(ctx, t, c, OrchestrateToolName, map[string]any{"task": "t"}, map[string]any{"ttl": 20})
	await(ctx, t, cond.reached, "the episode's first step")
	if err := await(ctx, t, cond.stopped, "the episode stopping when the TTL passed"); err == nil {
		t.Fatal("the episode stopped without its context ending")
	}
	awaitForgotten(ctx, t, srv, task.TaskId)
}

// A call without a task is served as before: it waits for the episode and
// returns its result, and no task is created.
func TestTaskCallWithoutTaskIsSynchronous(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cond := newSteppingConductor()
	close(cond.release)
	c := taskTransports[0].connect(t, conductorServer(t, cond))
	res := callTool(t, c, OrchestrateToolName, map[string]any{"task": "add 40 and 2"})
	if trace := decodeTrace(t, res.StructuredContent); res.IsError || trace.Answer != "42" || len(trace.Steps) != 4 {
		t.Fatalf("synchronous result error %v, trace %+v", res.IsError, trace)
	}
	listed, err := c.ListTasks(ctx, mcpgo.ListTasksRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Tasks) != 0 {
		t.Fatalf("a synchronous call left tasks %+v", listed.Tasks)
	}
}

// awaitForgotten waits until the board has let go of the task, which it
// does once the task's handler has returned.
func awaitForgotten(ctx context.Context, t *testing.T, s *Server, id string) {
	t.Helper()
	for {
		s.tasks.mu.Lock()
		_, running := s.tasks.byID[id]
		s.tasks.mu.Unlock()
		if !running {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the task's handler did not return: %v", ctx.Err())
		}
		runtime.Gosched()
	}
}

func decodeTrace(t *testing.T, structured any) Trace {
	t.Helper()
	raw, err := json.Marshal(structured)
	if err != nil {
		t.Fatal(err)
	}
	var tr Trace
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatalf("decode trace: %v", err)
	}
	return tr
}

// recordingElicitor answers every elicitation with a name and keeps the
// _meta each came with.
type recordingElicitor struct{ metas chan *mcpgo.Meta }

func (r recordingElicitor) Elicit(_ context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	r.metas <- req.Params.Meta
	return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{
		Action: mcpgo.ElicitationResponseActionAccept, Content: map[string]any{"name": "erin"}}}, nil
}

// An elicitation a 2025-11-25 task's episode makes of the client names
// the task in its _meta, so that a client can route it to that task.
func TestTaskElicitationNamesItsTask(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	elicitor := recordingElicitor{metas: make(chan *mcpgo.Meta, 1)}
	c, _ := stdioClient(t, testServer(t, newFakeCatalog(), Options{Conductor: askingConductor{}}),
		mcpclient.WithElicitationHandler(elicitor))
	task := callAsTask(ctx, t, c, OrchestrateToolName, map[string]any{"task": "whose?"})
	meta := await(ctx, t, elicitor.metas, "the task's elicitation")
	related, _ := meta.GetMetaField(mcpgo.RelatedTaskMetaKey).(map[string]any)
	if related["taskId"] != task.TaskId {
		t.Fatalf("the elicitation's _meta %+v, want %s naming task %s", meta, mcpgo.RelatedTaskMetaKey, task.TaskId)
	}
	var get mcpgo.GetTaskRequest
	get.Params.TaskId = task.TaskId
	if done, err := c.WaitForTask(ctx, get, 5*time.Millisecond); err != nil || done.Status != mcpgo.TaskStatusCompleted {
		t.Fatalf("task %+v, %v: want completed", done, err)
	}
}
