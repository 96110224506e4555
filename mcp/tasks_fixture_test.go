package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
)

// steppingConductor runs an episode in two halves the test controls: it
// publishes a model step and says so on reached, then waits. Closing
// release lets it publish a tool step and the answer and return an
// answered run; if its context ends first it returns a cancelled run and
// sends the context's error on stopped.
type steppingConductor struct {
	bus     *events.Bus
	reached chan string // the run id, once the first step is published
	release chan struct{}
	stopped chan error
}

func newSteppingConductor() *steppingConductor {
	return &steppingConductor{bus: events.New(events.Options{}), reached: make(chan string, 1),
		release: make(chan struct{}), stopped: make(chan error, 1)}
}

func (c *steppingConductor) Run(ctx context.Context, req conductor.Request) (*conductor.Run, error) {
	run := &conductor.Run{ID: req.RunID, Task: req.Task, Mode: req.Mode, Policy: "orchestrator"}
	publish := func(s conductor.Step) {
		s.Index = len(run.Steps)
		run.Steps = append(run.Steps, s)
		c.bus.Publish(events.RunStep, req.RunID, s)
	}
	publish(conductor.Step{Turn: 1, Kind: conductor.StepModel, Alias: "orchestrator", Model: "orch-8b",
		Locality: hub.LocalityLocal, TokensIn: 100, TokensOut: 5, Wall: 5 * time.Millisecond})
	c.reached <- req.RunID
	select {
	case <-c.release:
	case <-ctx.Done():
		run.Status, run.Error = conductor.RunCancelled, ctx.Err().Error()
		c.stopped <- ctx.Err()
		return run, nil
	}
	publish(conductor.Step{Turn: 1, Kind: conductor.StepTool, Tool: "calc__add", Locality: hub.LocalityRemote, Wall: time.Millisecond})
	publish(conductor.Step{Turn: 1, Kind: conductor.StepObservation, Text: "42"})
	publish(conductor.Step{Turn: 2, Kind: conductor.StepAnswer, Text: "42"})
	run.Status, run.Answer = conductor.RunAnswered, "42"
	run.Totals = conductor.Totals{Turns: 2, ModelCalls: 1, ToolCalls: 1, TokensIn: 100, TokensOut: 5}
	return run, nil
}

// taskTransports are the ways a test client reaches a server with a
// conductor: mcp-go's in-process transport, toolhub's Streamable HTTP
// endpoint and its stdio server. All speak 2025-11-25, the version whose
// Tasks mcp-go serves.
var taskTransports = []struct {
	name    string
	connect func(t *testing.T, s *Server) *mcpclient.Client
}{
	{"in process", func(t *testing.T, s *Server) *mcpclient.Client {
		c, err := mcpclient.NewInProcessClient(s.MCPServer())
		if err != nil {
			t.Fatal(err)
		}
		initClient(t, c, clientOptions{legacy: true})
		return c
	}},
	{"streamable http", func(t *testing.T, s *Server) *mcpclient.Client {
		return connectHTTP(t, serveHTTP(t, s, HTTPOptions{}).URL(), clientOptions{legacy: true})
	}},
	{"stdio", func(t *testing.T, s *Server) *mcpclient.Client {
		c, _ := stdioClient(t, s)
		return c
	}},
}

// conductorServer is a server whose conductor is c.
func conductorServer(t *testing.T, c *steppingConductor) *Server {
	t.Helper()
	return testServer(t, newFakeCatalog(), Options{Conductor: c, Events: c.bus})
}

// callAsTask calls tool as a task and returns the task the server created.
// mcp-go's client has no typed call for this, so the request goes through
// its transport. The task has no TTL: mcp-go would keep a goroutine
// sleeping through it after the test.
func callAsTask(ctx context.Context, t *testing.T, c *mcpclient.Client, tool string, args map[string]any) mcpgo.Task {
	t.Helper()
	return callAsTaskWith(ctx, t, c, tool, args, map[string]any{})
}

// taskCalls numbers the task calls: each has an id of its own, since
// mcp-go's stdio client may drop the wait of a request that reuses the id
// of one just answered.
var taskCalls atomic.Int64

// callAsTaskWith calls tool as a task with the given task params.
func callAsTaskWith(ctx context.Context, t *testing.T, c *mcpclient.Client, tool string, args, task map[string]any) mcpgo.Task {
	t.Helper()
	resp, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId(fmt.Sprintf("task-call-%d", taskCalls.Add(1))), Method: string(mcpgo.MethodToolsCall),
		Params: map[string]any{"name": tool, "arguments": args, "task": task},
	})
	if err != nil {
		t.Fatalf("call %s as a task: %v", tool, err)
	}
	if resp.Error != nil {
		t.Fatalf("call %s as a task: %s", tool, resp.Error.Message)
	}
	var created mcpgo.CreateTaskResult
	if err := json.Unmarshal(resp.Result, &created); err != nil {
		t.Fatalf("decode the created task: %v", err)
	}
	if created.Task.TaskId == "" || created.Task.Status != mcpgo.TaskStatusWorking {
		t.Fatalf("created task %+v, want a working task with an id", created.Task)
	}
	return created.Task
}

func getTask(ctx context.Context, t *testing.T, c *mcpclient.Client, id string) *mcpgo.GetTaskResult {
	t.Helper()
	var req mcpgo.GetTaskRequest
	req.Params.TaskId = id
	res, err := c.GetTask(ctx, req)
	if err != nil {
		t.Fatalf("tasks/get: %v", err)
	}
	return res
}

// taskTrace decodes the steps so far that tasks/get carries in _meta.
func taskTrace(t *testing.T, res *mcpgo.GetTaskResult) (TaskTrace, bool) {
	t.Helper()
	if res.Meta == nil || res.Meta.AdditionalFields[TaskTraceMetaKey] == nil {
		return TaskTrace{}, false
	}
	raw, err := json.Marshal(res.Meta.AdditionalFields[TaskTraceMetaKey])
	if err != nil {
		t.Fatal(err)
	}
	var tr TaskTrace
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatalf("decode %s: %v", TaskTraceMetaKey, err)
	}
	return tr, true
}

// awaitStep polls tasks/get until the task's status message reports a
// step: the step is published before reached fires, but reaches the
// board on the bus's own goroutine.
func awaitStep(ctx context.Context, t *testing.T, c *mcpclient.Client, id string) *mcpgo.GetTaskResult {
	t.Helper()
	for {
		res := getTask(ctx, t, c, id)
		if res.StatusMessage != "" || res.Status != mcpgo.TaskStatusWorking {
			return res
		}
		if ctx.Err() != nil {
			t.Fatalf("no step reported while the task ran: %v", ctx.Err())
		}
	}
}

func await[T any](ctx context.Context, t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatalf("%s: %v", what, ctx.Err())
		var zero T
		return zero
	}
}
