package mcp

import (
	"context"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// A server with a conductor declares the 2025-11-25 tasks capability, with
// tasks/list, tasks/cancel and task-augmented tools/call, in the initialize
// result, and the 2026-07-28 Tasks extension in place of it in the
// server/discover result; one without a conductor declares neither.
func TestTaskCapabilityDeclared(t *testing.T) {
	cases := []struct {
		name      string
		legacy    bool
		conductor bool
		wantTasks bool // the 2025-11-25 capability
		wantExt   bool // the extension
	}{
		{"initialize with a conductor", true, true, true, true},
		{"server/discover with a conductor", false, true, false, true},
		{"initialize without a conductor", true, false, false, false},
		{"server/discover without a conductor", false, false, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{}
			if tc.conductor {
				cond := newSteppingConductor()
				opts.Conductor, opts.Events = cond, cond.bus
			}
			c, err := mcpclient.NewInProcessClient(testServer(t, newFakeCatalog(), opts).MCPServer())
			if err != nil {
				t.Fatal(err)
			}
			initClient(t, c, clientOptions{legacy: tc.legacy})
			declared := c.GetServerCapabilities()
			if _, ext := declared.Extensions[TasksExtension]; ext != tc.wantExt {
				t.Fatalf("Tasks extension declared = %v, want %v", ext, tc.wantExt)
			}
			caps := declared.Tasks
			if !tc.wantTasks {
				if caps != nil {
					t.Fatalf("tasks capability declared: %+v", caps)
				}
				return
			}
			if caps == nil || caps.List == nil || caps.Cancel == nil || caps.Requests == nil ||
				caps.Requests.Tools == nil || caps.Requests.Tools.Call == nil {
				t.Fatalf("tasks capability %+v, want list, cancel and tools/call", caps)
			}
		})
	}
}

// orchestrate and research may be called as tasks or not; toolhub's other
// tools say nothing, so they may not.
func TestTaskSupportOfTools(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	c := taskTransports[0].connect(t, conductorServer(t, newSteppingConductor()))
	tools, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]mcpgo.TaskSupport{}
	for _, tool := range tools.Tools {
		if tool.Execution != nil {
			got[tool.Name] = tool.Execution.TaskSupport
		}
	}
	want := map[string]mcpgo.TaskSupport{OrchestrateToolName: mcpgo.TaskSupportOptional, ResearchToolName: mcpgo.TaskSupportOptional}
	if len(got) != len(want) || got[OrchestrateToolName] != want[OrchestrateToolName] || got[ResearchToolName] != want[ResearchToolName] {
		t.Fatalf("task support %v, want %v", got, want)
	}
}

// When the client's session ends, the episodes of its tasks are cancelled:
// nobody could read their results any more.
func TestTaskSessionEndCancelsEpisode(t *testing.T) {
	for _, tr := range taskTransports {
		t.Run(tr.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			cond := newSteppingConductor()
			srv := conductorServer(t, cond)
			c := tr.connect(t, srv)
			task := callAsTask(ctx, t, c, OrchestrateToolName, map[string]any{"task": "t"})
			await(ctx, t, cond.reached, "the episode's first step")
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if err := await(ctx, t, cond.stopped, "the episode stopping"); err == nil {
				t.Fatal("the episode stopped without its context ending")
			}
			awaitForgotten(ctx, t, srv, task.TaskId)
		})
	}
}

// A request of protocol 2026-07-28 that asks for a task gets the result at
// once: mcp-go has no tasks/result for that version to read it with later.
func TestTaskModernRequestIsSynchronous(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	cond := newSteppingConductor()
	close(cond.release)
	c, err := mcpclient.NewInProcessClient(conductorServer(t, cond).MCPServer())
	if err != nil {
		t.Fatal(err)
	}
	initClient(t, c, clientOptions{})
	// mcp-go's client decodes a tool result only: a created task would
	// fail the call with "content is missing".
	var req mcpgo.CallToolRequest
	req.Params.Name, req.Params.Arguments = OrchestrateToolName, map[string]any{"task": "t"}
	req.Params.Task = &mcpgo.TaskParams{}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("call as a task on 2026-07-28: %v", err)
	}
	if trace := decodeTrace(t, res.StructuredContent); res.IsError || trace.Answer != "42" {
		t.Fatalf("result error %v, trace %+v", res.IsError, trace)
	}
}
