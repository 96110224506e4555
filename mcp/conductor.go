package mcp

import (
	"context"
	"encoding/json"
	"log/slog"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
)

// ConductorServerName is the name of the in-process server holding the
// orchestrate and research tools.
const ConductorServerName = "conductor"

// EpisodeRequest is one orchestrate or research call, as the client made it.
type EpisodeRequest struct {
	Task string
	Mode conductor.Mode
	// Preference is the call's `preference` argument (a shorthand string or
	// a partial preferences object); it may only tighten the saved ones.
	Preference json.RawMessage
	// BudgetUSD caps this call's spend; 0 leaves the saved budget.
	BudgetUSD float64
}

// EpisodeRunner runs one episode and reports each step as it is recorded.
type EpisodeRunner interface {
	RunEpisode(ctx context.Context, req EpisodeRequest, onStep func(conductor.Step)) (*conductor.Run, error)
}

// ConductorOptions tune the conductor tools.
type ConductorOptions struct {
	Logger *slog.Logger
	// MaxTaskBytes caps a task's length (default 64 KiB).
	MaxTaskBytes int
}

// Conductor serves the orchestrate and research tools: each call runs one
// episode, sends a progress notification per step to the calling client,
// and returns the answer with the structured trace.
type Conductor struct {
	runner EpisodeRunner
	opts   ConductorOptions
	server *mcpserver.MCPServer
}

// NewConductor builds the provider over runner.
func NewConductor(runner EpisodeRunner, opts ConductorOptions) *Conductor {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.MaxTaskBytes <= 0 {
		opts.MaxTaskBytes = 64 << 10
	}
	c := &Conductor{runner: runner, opts: opts}
	s := mcpserver.NewMCPServer("toolhub-"+ConductorServerName, "1",
		mcpserver.WithToolCapabilities(false))
	s.AddTool(orchestrateTool(), c.handle(conductor.ModeTools, "task"))
	s.AddTool(researchTool(), c.handle(conductor.ModeResearch, "question"))
	c.server = s
	return c
}

// Server is the in-process MCP server the hub connects to.
func (c *Conductor) Server() *mcpserver.MCPServer { return c.server }
