package mcp

import (
	"context"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
)

// Conductor runs orchestration episodes. The orchestrate and research tools
// call it directly: an episode never travels through an MCP client or
// server of toolhub's own. *conductor.Engine satisfies it.
type Conductor interface {
	Run(ctx context.Context, req conductor.Request) (*conductor.Run, error)
}

// Events is where a run's steps are read from as they happen.
// *events.Bus satisfies it.
type Events interface {
	Follow(f events.Filter, fn func(events.Event)) (stop func(), dropped func() int64)
}

// DefaultMaxTaskBytes caps the text of one orchestrate or research call.
const DefaultMaxTaskBytes = 64 << 10

// conductorTools are toolhub's own orchestrate and research tools, or none
// when the server has no conductor.
func (s *Server) conductorTools() []mcpserver.ServerTool {
	if s.opts.Conductor == nil {
		return nil
	}
	return []mcpserver.ServerTool{
		{Tool: orchestrateTool(), Handler: s.conductorHandler(OrchestrateToolName)},
		{Tool: researchTool(), Handler: s.conductorHandler(ResearchToolName)},
	}
}

// conductorHandler runs one episode per call: it follows the run's steps on
// the event bus, sends each as a progress notification under the caller's
// token, and returns the answer with the structured trace. Every progress
// notification is sent before the result. A call made as an MCP task runs
// the same way, its steps read with tasks/get instead (asTask).
func (s *Server) conductorHandler(tool string) mcpserver.ToolHandlerFunc {
	mode, textArg, _ := episodeMode(tool)
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		runID, token, taskID := conductor.NewRunID(), progressToken(req), ""
		if req.Params.Task != nil {
			var end func()
			ctx, taskID, end = s.asTask(ctx, req, runID)
			defer end()
			token = nil // a task's steps are read with tasks/get
		}
		return s.runEpisode(s.withTaskClient(ctx, taskID), req, mode, textArg, runID, token), nil
	}
}

// runEpisode runs one conductor call as runID and returns its answer with
// the structured trace; its steps go out as progress under token, when
// given. The hub reaches the calling client through ctx.
func (s *Server) runEpisode(ctx context.Context, req mcpgo.CallToolRequest, mode conductor.Mode, textArg, runID string,
	token mcpgo.ProgressToken,
) *mcpgo.CallToolResult {
	creq, err := episodeRequest(req, mode, textArg, s.opts.MaxTaskBytes)
	if err != nil {
		return mcpgo.NewToolResultError(err.Error())
	}
	creq.RunID = runID
	stop := s.followRun(ctx, creq.RunID, token)
	run, err := s.opts.Conductor.Run(ctx, creq)
	stop()
	if run == nil {
		if err == nil {
			err = errNoRun
		}
		return mcpgo.NewToolResultError(userMessage("the episode could not run", err))
	}
	trace := NewTrace(run)
	res := mcpgo.NewToolResultStructured(trace, trace.Summary())
	res.IsError = run.Status != conductor.RunAnswered
	return res
}

// episodeMode is the mode and text argument of a conductor tool.
func episodeMode(tool string) (conductor.Mode, string, bool) {
	switch tool {
	case OrchestrateToolName:
		return conductor.ModeTools, "task", true
	case ResearchToolName:
		return conductor.ModeResearch, "question", true
	}
	return "", "", false
}

// followRun sends the run's steps as progress notifications while it runs,
// when the client asked for progress. stop waits until every step the run
// published has been sent (or skipped) and written to the client.
func (s *Server) followRun(ctx context.Context, runID string, token mcpgo.ProgressToken) (stop func()) {
	if token == nil || s.opts.Events == nil {
		return func() {}
	}
	route := s.newRoute(ctx, "", token)
	n := 0
	stopFollow, dropped := s.opts.Events.Follow(events.Filter{Mask: events.RunStep, Subject: runID}, func(e events.Event) {
		step, ok := e.Data.(conductor.Step)
		if !ok || step.Kind == conductor.StepObservation {
			return // observations are not steps a client needs to see
		}
		n++
		err := route.notify(string(mcpgo.MethodNotificationProgress), map[string]any{
			"progressToken": token, "progress": n, "message": StepMessage(n, step)})
		if err != nil {
			s.log.Debug("step progress not sent", "err", err)
		}
	})
	return func() {
		// The run has returned, so all its steps are published: stopping
		// sends the rest before the result is written.
		stopFollow()
		route.awaitDelivered(ctx)
		if d := dropped(); d > 0 {
			s.log.Warn("progress of a run lost steps: the client read too slowly", "run", runID, "lost", d)
		}
	}
}
