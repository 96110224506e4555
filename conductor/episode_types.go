package conductor

import (
	"encoding/json"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// Mode is how the orchestrator drives an episode.
type Mode string

// Episode modes (docs/orchestrator-protocol.md §2).
const (
	ModeResearch Mode = "research"
	ModeTools    Mode = "tools"
)

// MaxTurns is the hard turn limit of an episode.
const MaxTurns = 50

// StepKind says what a step was.
type StepKind string

// Step kinds.
const (
	StepModel       StepKind = "model"
	StepTool        StepKind = "tool"
	StepObservation StepKind = "observation"
	StepAnswer      StepKind = "answer"
)

// Step is one recorded action of an episode.
type Step struct {
	Index int      `json:"index"`
	Turn  int      `json:"turn"`
	Kind  StepKind `json:"kind"`
	Tool  string   `json:"tool,omitempty"` // catalog tool, for tool steps
	// Args are a tool step's arguments as sent (or as the policy asked,
	// for a call refused before it was sent).
	Args      json.RawMessage `json:"args,omitempty"`
	Alias     string          `json:"alias,omitempty"` // research/expert alias or "orchestrator"
	Purpose   string          `json:"purpose,omitempty"`
	Endpoint  string          `json:"endpoint,omitempty"` // model endpoint name
	Model     string          `json:"model,omitempty"`    // backing model id
	Locality  hub.Locality    `json:"locality,omitempty"`
	TokensIn  int             `json:"tokens_in,omitempty"`
	TokensOut int             `json:"tokens_out,omitempty"`
	Estimated bool            `json:"tokens_estimated,omitempty"`
	USD       float64         `json:"usd,omitempty"`
	// CostUnknown marks a call whose price toolhub cannot know (a model
	// served through the client's MCP sampling); USD is then 0.
	CostUnknown bool          `json:"cost_unknown,omitempty"`
	Wall        time.Duration `json:"wall_ns"`
	Error       string        `json:"error,omitempty"`
	// Refused: the call was not sent (a guard, the budget); Error says why.
	Refused   bool            `json:"refused,omitempty"`
	Text      string          `json:"text,omitempty"`       // observation text or a short result
	Request   []byte          `json:"request,omitempty"`    // model request body, when kept
	Reply     []byte          `json:"reply,omitempty"`      // model reply body, when kept
	Response  string          `json:"response,omitempty"`   // model reply content or tool result text
	ToolCalls json.RawMessage `json:"tool_calls,omitempty"` // the model's parsed tool calls, as sent
}

// RunStatus is how an episode ended.
type RunStatus string

// Run statuses.
const (
	RunRunning   RunStatus = "running"
	RunAnswered  RunStatus = "answered"
	RunNoAnswer  RunStatus = "no_answer"
	RunCancelled RunStatus = "cancelled"
	RunFailed    RunStatus = "failed"
	// RunBudgetExhausted: the next call would have passed the task's budget,
	// or the calls so far reached it. Answer is empty; Error says why and
	// what the episode did.
	RunBudgetExhausted RunStatus = "budget_exhausted"
	// RunDeadline: the task's deadline passed. Answer is empty; Error says
	// what the episode did.
	RunDeadline RunStatus = "deadline"
)

// Totals sum an episode's steps.
type Totals struct {
	TokensIn   int           `json:"tokens_in"`
	TokensOut  int           `json:"tokens_out"`
	USD        float64       `json:"usd"`
	Wall       time.Duration `json:"wall_ns"`
	ModelCalls int           `json:"model_calls"`
	ToolCalls  int           `json:"tool_calls"`
	Turns      int           `json:"turns"`
}

// Run is one episode: its task, trace and outcome.
type Run struct {
	ID      string    `json:"id"`
	Task    string    `json:"task"`
	Mode    Mode      `json:"mode"`
	Policy  string    `json:"policy"`
	Started time.Time `json:"started"`
	Status  RunStatus `json:"status"`
	Answer  string    `json:"answer,omitempty"`
	Forced  bool      `json:"forced,omitempty"`
	// Error says why a run that is not answered ended.
	Error    string `json:"error,omitempty"`
	Steps    []Step `json:"steps"`
	Totals   Totals `json:"totals"`
	Expected string `json:"expected,omitempty"`  // known correct answer, for rewards
	ReplayOf string `json:"replay_of,omitempty"` // the recorded run this one replays
}

// Replay makes an episode continue a recorded one on another model: its
// first request to the orchestrator is FirstRequest, sent as recorded
// instead of the policy's own; every later request is the policy's.
type Replay struct {
	Of           string // the recorded run's id
	FirstRequest []byte
}

// Add appends s to the trace, numbering it and adding it to the totals.
func (r *Run) Add(s Step) Step {
	s.Index = len(r.Steps)
	r.Steps = append(r.Steps, s)
	r.Totals.TokensIn += s.TokensIn
	r.Totals.TokensOut += s.TokensOut
	r.Totals.USD += s.USD
	switch s.Kind {
	case StepModel:
		r.Totals.ModelCalls++
	case StepTool:
		r.Totals.ToolCalls++
	}
	return s
}

// clone copies the run for events, without sharing the step slice.
func (r *Run) clone() *Run {
	c := *r
	c.Steps = append([]Step(nil), r.Steps...)
	return &c
}
