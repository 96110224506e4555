package conductor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolhub/toolhub/llm"
)

// Request is one orchestrate or research call as a surface received it
// (an MCP tool call, `toolhub run`, the desktop's Run button).
type Request struct {
	// RunID names the run; "" gives it a fresh one. A surface that follows
	// the run's events picks it first (NewRunID) and subscribes to it.
	RunID string
	Task  string
	Mode  Mode
	// Policy names the policy; "" is the configured default.
	Policy string
	// Preference is the call's own preference (a shorthand such as
	// "local-only" or a partial preferences object, as JSON); it may only
	// tighten the saved preferences.
	Preference json.RawMessage
	// BudgetUSD caps this call's spend; 0 leaves the saved budget.
	BudgetUSD float64
	// MaxTurns lowers the turn limit; 0 leaves it.
	MaxTurns int
	// Expected is the known answer, for rewards; usually empty.
	Expected string
	// Replay continues a recorded run on another model; nil for a new one.
	Replay *Replay
}

// Planner turns a request into what the engine runs: the task (its guard,
// preference sentence, budget, deadline and turn limit from the saved
// preferences tightened by the request) and the policy that decides it.
type Planner interface {
	Plan(req Request, eps *Episodes) (Task, Policy, error)
}

// EngineOptions tune an Engine. The zero value is usable.
type EngineOptions struct {
	// Ready waits for the downstream servers still connecting, so the
	// whole catalog is offered; nil does not wait.
	Ready func(ctx context.Context) error
	// ReadyWait bounds that wait (default 30 s): an episode then starts
	// with the servers that are ready.
	ReadyWait time.Duration
	Logger    *slog.Logger
}

// Engine is the one way every surface runs an episode.
type Engine struct {
	eps     *Episodes
	planner Planner
	opts    EngineOptions
}

// NewEngine returns the engine running eps's episodes as planner says.
func NewEngine(eps *Episodes, planner Planner, opts EngineOptions) (*Engine, error) {
	if eps == nil || planner == nil {
		return nil, errors.New("the engine needs episodes and a planner")
	}
	if opts.ReadyWait <= 0 {
		opts.ReadyWait = 30 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Engine{eps: eps, planner: planner, opts: opts}, nil
}

// Run runs one episode for req: it waits briefly for servers still
// connecting, plans the task and the policy, and runs it. Every step is
// published on the bus as it is recorded (the run log, MCP progress and the
// desktop read them there). The run is returned even when err is set, once
// it started at all.
func (e *Engine) Run(ctx context.Context, req Request) (*Run, error) {
	if e.opts.Ready != nil {
		rctx, cancel := context.WithTimeout(ctx, e.opts.ReadyWait)
		err := e.opts.Ready(rctx)
		cancel()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("wait for servers: %w", ctx.Err())
		}
		if err != nil {
			e.opts.Logger.Warn("some servers are still connecting; the episode starts without them", "err", err)
		}
	}
	task, policy, err := e.planner.Plan(req, e.eps)
	if err != nil {
		return nil, fmt.Errorf("plan episode: %w", err)
	}
	task.RunID, task.Replay = req.RunID, req.Replay
	run, err := e.eps.Run(ctx, task, policy)
	if err != nil {
		return run, fmt.Errorf("run episode: %w", err)
	}
	return run, nil
}

// Models is the registry of the models the engine's episodes call.
func (e *Engine) Models() *llm.Models { return e.eps.Models() }
