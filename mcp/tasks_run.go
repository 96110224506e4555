package mcp

import (
	"context"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
)

// taskOptions declare tasks (tools/call, tasks/list, tasks/cancel) when
// the server has a conductor, and join the board to mcp-go's task
// lifecycle: creation, cancellation, the end of a session, and the
// tasks/get and tasks/list answers, which get the latest step. They also
// declare the 2026-07-28 Tasks extension, which toolhub serves itself
// (tasks_modern_front.go); a request of that protocol asking for a task
// the 2025-11-25 way is served synchronously.
func (s *Server) taskOptions(hooks *mcpserver.Hooks) []mcpserver.ServerOption {
	if s.opts.Conductor == nil {
		return nil
	}
	b := s.tasks
	th := &mcpserver.TaskHooks{}
	th.AddOnTaskCreated(func(ctx context.Context, m mcpserver.TaskMetrics) {
		b.create(mcpserver.RequestProtocolInfoFromContext(ctx), m.TaskID, m.SessionID)
	})
	th.AddOnTaskCancelled(func(_ context.Context, m mcpserver.TaskMetrics) { b.cancelTask(m.TaskID) })
	hooks.AddBeforeCallTool(func(ctx context.Context, _ any, req *mcpgo.CallToolRequest) {
		if req.Params.Task != nil && mcpserver.IsModernRequest(ctx) && isConductorTool(req.Params.Name) {
			// mcp-go serves the Tasks of 2025-11-25, whose tasks/result it
			// has removed on 2026-07-28: such a task's result could not be
			// read, so the call is answered as the core protocol does.
			req.Params.Task = nil
		}
	})
	hooks.AddAfterDiscover(func(_ context.Context, _ any, _ *mcpgo.DiscoverRequest, res *mcpgo.DiscoverResult) {
		// server/discover speaks 2026-07-28, whose tasks are the
		// extension's: the tasks capability of 2025-11-25 is not declared
		// there (initialize still declares it).
		res.Capabilities.Tasks = nil
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, session mcpserver.ClientSession) {
		b.cancelSession(session.SessionID())
	})
	hooks.AddAfterGetTask(func(_ context.Context, _ any, _ *mcpgo.GetTaskRequest, res *mcpgo.GetTaskResult) {
		b.describe(&res.Task, &res.Result)
	})
	hooks.AddAfterListTasks(func(_ context.Context, _ any, _ *mcpgo.ListTasksRequest, res *mcpgo.ListTasksResult) {
		for i := range res.Tasks {
			b.describe(&res.Tasks[i], nil)
		}
	})
	return []mcpserver.ServerOption{
		mcpserver.WithExtensions(map[string]any{TasksExtension: map[string]any{}}),
		mcpserver.WithTaskCapabilities(true, true, true),
		mcpserver.WithTaskHooks(th),
	}
}

// asTask prepares a conductor call that runs as an MCP task: it returns
// the context the episode runs under, the task's id and end, to call when
// the handler returns. A call that is not a task keeps ctx.
//
// mcp-go runs a task's handler on the context of the tools/call request,
// which it ends as soon as it has answered with the task. The episode
// therefore runs on a context of its own, keeping ctx's values, that
// tasks/cancel and the end of the client's session cancel through the
// board, and the task's TTL ends. While it runs, its steps are collected
// for tasks/get.
func (s *Server) asTask(ctx context.Context, req mcpgo.CallToolRequest, runID string) (context.Context, string, func()) {
	if req.Params.Task == nil {
		return ctx, "", func() {}
	}
	r, ok := s.tasks.claim(ctx)
	if !ok {
		s.log.Warn("a task's call has no task on record; it runs on the request's context", "run", runID)
		return ctx, "", func() {}
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stopTTL := func() bool { return false }
	if ttl := req.Params.Task.TTL; ttl != nil && *ttl > 0 {
		// mcp-go forgets the task once its TTL has passed; nobody can read
		// the episode's result after that, so it ends then too.
		stopTTL = time.AfterFunc(time.Duration(*ttl)*time.Millisecond, cancel).Stop
	}
	stopFollow := s.followTask(&r.trace, runID)
	s.tasks.start(r, runID, cancel)
	return ctx, r.id, func() {
		stopTTL()
		stopFollow()
		s.tasks.finish(r)
		cancel()
	}
}

// followTask records the run's steps in tr as they are published.
func (s *Server) followTask(tr *stepTrace, runID string) (stop func()) {
	if s.opts.Events == nil {
		return func() {}
	}
	stopFollow, dropped := s.opts.Events.Follow(events.Filter{Mask: events.RunStep, Subject: runID}, func(e events.Event) {
		if step, ok := e.Data.(conductor.Step); ok {
			tr.add(step)
		}
	})
	return func() {
		stopFollow()
		if d := dropped(); d > 0 {
			s.log.Warn("a task's trace lost steps while it ran; its result has them all", "run", runID, "lost", d)
		}
	}
}

func isConductorTool(name string) bool {
	_, _, ok := episodeMode(name)
	return ok
}
