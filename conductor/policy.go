package conductor

import (
	"encoding/json"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// State is what a policy sees during one episode. The offered tools and
// models are already filtered by the guard. A policy reads it; it acts only
// through the Actions it returns.
type State struct {
	RunID        string
	Task         string
	Mode         Mode
	Turn         int // current turn, from 1
	MaxTurns     int
	Tools        []*hub.Tool     // catalog tools offered this episode
	Models       []llm.ModelInfo // expert endpoints offered, re-read each turn with the latest latencies
	Orchestrator *llm.ModelInfo  // nil when none is configured or allowed
	// Roster is every configured expert model (the orchestrator left
	// out), offered or not, in the registry's order with its own roles.
	// Aliases are numbered over it, so that an alias names the same model
	// whatever the preferences withhold (protocol §10: answer-1 stays the
	// cloud model, refused, when cloud models are off).
	Roster []llm.ModelInfo
	// Withheld gives, for each model of Roster the guard refuses, why.
	Withheld map[string]string
	// Preference is the task's preference sentence, for the orchestrator.
	Preference string

	ep *episode
}

// Steps returns the trace so far.
func (s *State) Steps() []Step {
	if s.ep == nil {
		return nil
	}
	return s.ep.run.Steps
}

// Tool returns the offered tool called name.
func (s *State) Tool(name string) (*hub.Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Chooser is a policy with typed memory M. It only chooses: Start gives
// the memory an episode begins with, and Decide returns the next action and
// the memory after it, from the state, the memory and the outcome of the
// previous action of the same turn (nil for a turn's first decision). It
// makes no call itself: the engine checks, runs and records every action,
// so a Chooser is a pure function that tests drive by feeding outcomes.
type Chooser[M any] interface {
	Start(st *State) M
	Decide(st *State, mem M, last *Outcome) (Action, M)
}

// Policy is a Chooser with its memory type erased, as Episodes.Run takes
// it and the daemon picks it by name. Begin returns the episode's Decider;
// a Chooser implements it with Begin(c, st).
type Policy interface {
	Begin(st *State) Decider
}

// Decider is one episode's sequence of decisions over hidden memory.
type Decider func(st *State, last *Outcome) Action

// Begin erases c's memory type: the returned Decider keeps M between calls.
func Begin[M any](c Chooser[M], st *State) Decider {
	mem := c.Start(st)
	return func(st *State, last *Outcome) Action {
		var a Action
		a, mem = c.Decide(st, mem, last)
		return a
	}
}

// OrchestratedPolicy is a Policy that drives the configured orchestrator
// model. An episode whose guard refuses that model does not start: the
// policy would otherwise fall back silently to another way of working.
type OrchestratedPolicy interface {
	Policy
	UsesOrchestrator() bool
}

// ActionKind says what an action does.
type ActionKind int

// Action kinds.
const (
	// ActEndTurn does nothing more this turn (the turn is consumed).
	ActEndTurn ActionKind = iota
	// ActTool calls a catalog tool.
	ActTool
	// ActModel sends a request to a model endpoint.
	ActModel
	// ActAnswer ends the episode with an answer.
	ActAnswer
	// ActFail ends the episode as failed: the hub itself cannot go on
	// (a configuration the policy cannot work with, a request it cannot
	// render). Downstream failures are outcomes, never ActFail.
	ActFail
)

// Action is one decision of a policy. Notes are recorded as observations
// before the action runs (rejected calls, skipped work).
type Action struct {
	Kind  ActionKind
	Notes []string
	// EndTurn ends the turn once a tool or model action ran; its outcome
	// is then the next turn's first last. ActEndTurn always ends the turn.
	EndTurn bool

	Tool    string          // ActTool: catalog tool name
	Args    json.RawMessage // ActTool: its arguments
	Purpose string          // ActTool: why, for the trace

	Model ModelCall // ActModel

	Answer string // ActAnswer: the answer; may be empty
	Forced bool   // ActAnswer: from a fallback, not the policy's own choice

	Err error // ActFail: why
}

// ModelCall is one request to a model endpoint.
type ModelCall struct {
	Endpoint string // endpoint name
	Alias    string // what the orchestrator called it, or "orchestrator"
	Purpose  string // e.g. "decide", "search query", "answer"
	// Role is the alias role the call serves ("search", "answer", ...);
	// the hub refuses it when the guard removed that role from the model.
	Role string
	Body []byte // the request body, sent as is
}

// Outcome is what a tool or model action came to. Err is set when the
// call was refused (a *GuardError or *LimitError), failed in transport or
// downstream; Result or Reply is set otherwise. A tool that reported an
// error has Result.IsError.
type Outcome struct {
	Kind   ActionKind // ActTool or ActModel
	Result *hub.CallResult
	Reply  *llm.ModelReply
	Err    error
	// Cancelled says the episode's context ended during the call.
	Cancelled bool
}

// Failed reports whether the call produced nothing usable: refused, failed,
// or a tool that reported an error.
func (o *Outcome) Failed() bool {
	return o == nil || o.Err != nil || (o.Result != nil && o.Result.IsError)
}
