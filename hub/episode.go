package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ToolCaller is the part of the Hub an episode calls tools through.
type ToolCaller interface {
	Snapshot() *Snapshot
	Call(ctx context.Context, name string, args json.RawMessage, opts CallOptions) (*CallResult, error)
}

// Episodes runs orchestration episodes over a hub's tools and models.
type Episodes struct {
	tools          ToolCaller
	models         *Models
	orchestrator   string
	guard          Guard
	bus            *Bus
	maxResultChars int
	keepBodies     bool
}

// EpisodesConfig wires an Episodes.
type EpisodesConfig struct {
	Tools        ToolCaller // usually the *Hub
	Models       *Models
	Orchestrator string // endpoint name of the orchestrator model; empty for none
	Guard        Guard  // nil: PermissiveGuard
	Bus          *Bus   // nil: events are not published
	// MaxResultChars caps the text kept from one tool result (default 16000).
	MaxResultChars int
	// KeepRequests stores every model request body in the trace.
	KeepRequests bool
}

// NewEpisodes checks the configuration and returns the runner.
func NewEpisodes(cfg EpisodesConfig) (*Episodes, error) {
	e := &Episodes{tools: cfg.Tools, models: cfg.Models, orchestrator: cfg.Orchestrator,
		guard: cfg.Guard, bus: cfg.Bus, maxResultChars: cfg.MaxResultChars, keepBodies: cfg.KeepRequests}
	if e.tools == nil {
		return nil, errors.New("episodes need a tool caller")
	}
	if e.guard == nil {
		e.guard = PermissiveGuard{}
	}
	if e.maxResultChars <= 0 {
		e.maxResultChars = 16000
	}
	if e.orchestrator != "" {
		if _, ok := e.models.Get(e.orchestrator); !ok {
			return nil, fmt.Errorf("orchestrator model %q is not configured", e.orchestrator)
		}
	}
	return e, nil
}

// Bus returns the event bus (nil when none is set).
func (e *Episodes) Bus() *Bus { return e.bus }

// Models returns the model registry.
func (e *Episodes) Models() *Models { return e.models }

// Task is what one episode is asked to do.
type Task struct {
	Text       string
	Mode       Mode
	PolicyName string // recorded in the run
	MaxTurns   int    // 0 or more than MaxTurns: MaxTurns
	Expected   string // known answer, if any
}

// episode is the mutable part of one run, shared by State's methods.
type episode struct {
	*Episodes
	mu   sync.Mutex
	run  *Run
	turn int
}

func (ep *episode) record(s Step) {
	ep.mu.Lock()
	s.Turn = ep.turn
	s = ep.run.add(s)
	ep.mu.Unlock()
	ep.bus.Publish(Event{Kind: EventStep, RunID: ep.run.ID, Step: &s})
}

// Run drives policy until it answers, the turn limit, or ctx ends. The
// returned run holds the whole trace; err is set only when the policy
// failed outright (the run's status is then RunFailed).
func (e *Episodes) Run(ctx context.Context, task Task, policy Policy) (*Run, error) {
	run := &Run{ID: newRunID(), Task: task.Text, Mode: task.Mode, Policy: task.PolicyName,
		Started: time.Now().UTC(), Status: RunRunning, Expected: task.Expected}
	if run.Mode == "" {
		run.Mode = ModeResearch
	}
	ep := &episode{Episodes: e, run: run}
	st := e.newState(run, task)
	st.ep = ep
	e.bus.Publish(Event{Kind: EventRunStarted, RunID: run.ID, Run: run.clone()})
	start := time.Now()
	err := e.loop(ctx, st, policy)
	run.Totals.Wall = time.Since(start)
	run.Totals.Turns = ep.turn
	e.bus.Publish(Event{Kind: EventRunFinished, RunID: run.ID, Run: run.clone()})
	return run, err
}

func (e *Episodes) loop(ctx context.Context, st *State, policy Policy) error {
	ep := st.ep
	for turn := 1; turn <= st.MaxTurns; turn++ {
		if ctx.Err() != nil {
			ep.run.Status = RunCancelled
			return nil
		}
		ep.mu.Lock()
		ep.turn, st.Turn = turn, turn
		ep.mu.Unlock()
		d, err := policy.Decide(ctx, st)
		switch {
		case ctx.Err() != nil:
			ep.run.Status = RunCancelled
			return nil
		case err != nil:
			ep.run.Status, ep.run.Error = RunFailed, err.Error()
			return fmt.Errorf("run %s turn %d: %w", ep.run.ID, turn, err)
		case d.Final:
			ep.run.Status, ep.run.Answer, ep.run.Forced = RunAnswered, d.Answer, d.Forced
			ep.record(Step{Kind: StepAnswer, Text: d.Answer})
			return nil
		}
	}
	ep.run.Status = RunNoAnswer
	ep.run.Error = fmt.Sprintf("no answer within %d turns", st.MaxTurns)
	return nil
}

func (e *Episodes) newState(run *Run, task Task) *State {
	st := &State{RunID: run.ID, Task: task.Text, Mode: run.Mode, MaxTurns: task.MaxTurns}
	if st.MaxTurns <= 0 || st.MaxTurns > MaxTurns {
		st.MaxTurns = MaxTurns
	}
	for _, t := range e.tools.Snapshot().Tools() {
		if ok, _ := e.guard.AllowTool(t); ok {
			st.Tools = append(st.Tools, t)
		}
	}
	for _, m := range e.models.List() {
		if ok, _ := e.guard.AllowModel(m); !ok {
			continue
		}
		if m.Name == e.orchestrator {
			info := m
			st.Orchestrator = &info
			continue
		}
		st.Models = append(st.Models, m)
	}
	return st
}

func newRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:4])
}
