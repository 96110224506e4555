package conductor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/supervise"
	"github.com/toolhub/toolhub/llm"
)

// ToolCaller is the part of the Hub an episode calls tools through.
type ToolCaller interface {
	Snapshot() *hub.Snapshot
	Call(ctx context.Context, name string, args json.RawMessage, opts hub.CallOptions) (*hub.CallResult, error)
}

// Episodes runs orchestration episodes over a hub's tools and models.
type Episodes struct {
	tools          ToolCaller
	models         *llm.Models
	orchestrator   string
	guard          Guard
	bus            *events.Bus
	maxResultChars int
	keepBodies     bool
	loadWait       time.Duration
	loadRetry      supervise.RetryPolicy
	failRetry      supervise.RetryPolicy
	sleep          Sleeper
}

// EpisodesConfig wires an Episodes.
type EpisodesConfig struct {
	Tools        ToolCaller // usually the *Hub
	Models       *llm.Models
	Orchestrator string      // endpoint name of the orchestrator model; empty for none
	Guard        Guard       // nil: PermissiveGuard
	Bus          *events.Bus // nil: events are not published
	// MaxResultChars caps the text kept from one tool result (default 16000).
	MaxResultChars int
	// KeepRequests stores every model request and reply body in the trace.
	KeepRequests bool
	// LoadWait bounds how long one model call waits for a model that
	// answers it is still loading (default DefaultLoadWait; negative: no
	// wait). LoadRetry spaces the tries (zero: from 1 s up to 15 s).
	LoadWait  time.Duration
	LoadRetry supervise.RetryPolicy
	// RetryDelay and RetryMaxDelay space the calls of a model after failed
	// ones (an HTTP 500, a timeout): the next call waits a jittered delay
	// from RetryDelay, doubling with each failure in a row, up to
	// RetryMaxDelay (defaults DefaultRetryDelay and DefaultRetryMaxDelay).
	// The failed call still consumes its turn.
	RetryDelay, RetryMaxDelay time.Duration
	// Sleep waits between tries; nil waits on a timer. Tests pass their own.
	Sleep Sleeper
}

// NewEpisodes checks the configuration and returns the runner.
func NewEpisodes(cfg EpisodesConfig) (*Episodes, error) {
	e := &Episodes{tools: cfg.Tools, models: cfg.Models, orchestrator: cfg.Orchestrator,
		guard: cfg.Guard, bus: cfg.Bus, maxResultChars: cfg.MaxResultChars, keepBodies: cfg.KeepRequests,
		loadWait: cfg.LoadWait, loadRetry: cfg.LoadRetry, sleep: cfg.Sleep,
		failRetry: retryPolicy(cfg.RetryDelay, cfg.RetryMaxDelay)}
	if e.sleep == nil {
		e.sleep = supervise.Sleep
	}
	if e.tools == nil {
		return nil, errors.New("episodes need a tool caller")
	}
	if e.guard == nil {
		e.guard = PermissiveGuard{}
	}
	switch {
	case e.loadWait == 0:
		e.loadWait = DefaultLoadWait
	case e.loadWait < 0:
		e.loadWait = 0
	}
	if e.loadRetry == (supervise.RetryPolicy{}) {
		e.loadRetry = loadRetry
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

// Models returns the model registry.
func (e *Episodes) Models() *llm.Models { return e.models }

// Orchestrator returns the orchestrator's endpoint name ("" for none).
func (e *Episodes) Orchestrator() string { return e.orchestrator }

// Catalog returns every tool of the current catalog, offered or not.
func (e *Episodes) Catalog() []*hub.Tool { return e.tools.Snapshot().Tools() }

// Task is what one episode is asked to do, and under which limits.
type Task struct {
	// RunID names the run; "" gives it a fresh id. A surface that follows
	// the run's events chooses the id first (NewRunID) and subscribes.
	RunID      string
	Text       string
	Mode       Mode
	PolicyName string // recorded in the run
	MaxTurns   int    // 0 or more than MaxTurns: MaxTurns
	Expected   string // known answer, if any
	// Guard narrows what the episode may offer and call; the Episodes'
	// own guard still applies. nil: the Episodes' guard alone.
	Guard Guard
	// BudgetUSD caps the episode's spend. A model request whose
	// max_tokens the rest of the budget cannot pay for is sent with the
	// limit lowered to fit; the episode stops with RunBudgetExhausted
	// before a tool call whose cost, or a model request whose prompt and
	// MinReplyTokens, would pass it, and after the call whose real cost
	// reaches it. 0: no budget.
	BudgetUSD float64
	// Deadline stops the episode with RunDeadline this long after it
	// started. 0: none (the caller's context still applies).
	Deadline time.Duration
	// Preference is the preference sentence a policy appends to the task
	// when it talks to the orchestrator. Advice only: Guard, BudgetUSD,
	// Deadline and MaxTurns are what the hub enforces.
	Preference string
	Replay     *Replay // nil: a new episode
}

// episode is the mutable part of one run, shared by State's methods.
type episode struct {
	*Episodes
	guard  Guard   // the Episodes' guard and the task's
	budget float64 // USD; 0 = none
	// deadline is the task's, for the run's error text.
	deadline time.Duration
	mu       sync.Mutex
	run      *Run
	turn     int
	stop     *limitStop // set when the budget ended the episode
	// replayFirst is a replay's recorded first orchestrator request, until sent.
	replayFirst []byte
	failures    *failedCalls
}

func (ep *episode) record(s Step) {
	ep.mu.Lock()
	s.Turn = ep.turn
	s = ep.run.Add(s)
	ep.mu.Unlock()
	ep.bus.Publish(events.RunStep, ep.run.ID, s)
}

// errDeadline is the cause of a context ended by the task's deadline.
var errDeadline = errors.New("the task's deadline passed")

// Run drives policy until it answers, the turn limit, a budget or deadline
// stop, or ctx ends. The returned run holds the whole trace; err is set only
// when the episode failed outright (the run's status is then RunFailed),
// including when the guard refuses the orchestrator an OrchestratedPolicy
// needs: then no model request is sent at all.
func (e *Episodes) Run(ctx context.Context, task Task, policy Policy) (*Run, error) {
	id := task.RunID
	if id == "" {
		id = NewRunID()
	}
	run := &Run{ID: id, Task: task.Text, Mode: task.Mode, Policy: task.PolicyName,
		Started: time.Now().UTC(), Status: RunRunning, Expected: task.Expected}
	if run.Mode == "" {
		run.Mode = ModeResearch
	}
	ep := &episode{Episodes: e, run: run, guard: combineGuards(e.guard, task.Guard),
		budget: task.BudgetUSD, deadline: task.Deadline, failures: newFailedCalls(e.failRetry)}
	if task.Replay != nil {
		run.ReplayOf, ep.replayFirst = task.Replay.Of, task.Replay.FirstRequest
	}
	st := e.newState(ep, task)
	e.bus.Publish(events.RunStarted, run.ID, run.clone())
	start := time.Now()
	err := e.refuseStart(ep, policy)
	if err == nil {
		if task.Deadline > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeoutCause(ctx, task.Deadline, errDeadline)
			defer cancel()
		}
		err = e.loop(ctx, st, policy)
	}
	run.Totals.Wall = time.Since(start)
	run.Totals.Turns = ep.turn
	e.bus.Publish(events.RunFinished, run.ID, run.clone())
	return run, err
}

// newState builds the policy's view: the tools and models the guard offers.
func (e *Episodes) newState(ep *episode, task Task) *State {
	st := &State{RunID: ep.run.ID, Task: task.Text, Mode: ep.run.Mode, MaxTurns: task.MaxTurns,
		Preference: task.Preference, ep: ep}
	if st.MaxTurns <= 0 || st.MaxTurns > MaxTurns {
		st.MaxTurns = MaxTurns
	}
	st.Tools = e.offerTools(ep.guard)
	e.offerModels(ep.guard).set(st)
	return st
}

// Offered returns what an episode of task would be offered: the catalog
// tools and expert models (their roles narrowed by the guard) the guards
// allow, and the roster their aliases are numbered over. The preference
// sentence is rendered from it.
func (e *Episodes) Offered(task Task) (tools []*hub.Tool, models, roster []llm.ModelInfo) {
	g := combineGuards(e.guard, task.Guard)
	offer := e.offerModels(g)
	return e.offerTools(g), offer.models, offer.roster
}

func (e *Episodes) offerTools(g Guard) (tools []*hub.Tool) {
	for _, t := range e.tools.Snapshot().Tools() {
		if ok, _ := g.AllowTool(t); ok {
			tools = append(tools, t)
		}
	}
	return tools
}

// modelOffer is the models side of an episode's offer.
type modelOffer struct {
	models, roster []llm.ModelInfo
	withheld       map[string]string
	orchestrator   *llm.ModelInfo
}

// set puts the offer on st.
func (o modelOffer) set(st *State) {
	st.Models, st.Roster, st.Withheld, st.Orchestrator = o.models, o.roster, o.withheld, o.orchestrator
}

// offerModels returns the expert models and the orchestrator g allows, with
// their latest measured latencies (protocol §5 hard filtering, §6), and
// every expert model with why g withholds those it refuses.
func (e *Episodes) offerModels(g Guard) modelOffer {
	var o modelOffer
	for _, m := range e.models.List() {
		ok, reason := g.AllowModel(m)
		if m.Name == e.orchestrator {
			if ok {
				info := m
				o.orchestrator = &info
			}
			continue
		}
		o.roster = append(o.roster, m)
		if !ok {
			if o.withheld == nil {
				o.withheld = map[string]string{}
			}
			o.withheld[m.Name] = reason
			continue
		}
		m.Roles = modelRoles(g, m)
		o.models = append(o.models, m)
	}
	return o
}

// NewRunID returns a fresh run id: the start time and random hex digits.
func NewRunID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:4])
}
