package hub

import (
	"context"
	"encoding/json"
	"time"
)

// State is what a policy sees and acts through during one episode. The
// offered tools and models are already filtered by the guard.
type State struct {
	RunID        string
	Task         string
	Mode         Mode
	Turn         int // current turn, from 1
	MaxTurns     int
	Tools        []*Tool     // catalog tools offered this episode
	Models       []ModelInfo // expert endpoints offered, with measured latency
	Orchestrator *ModelInfo  // nil when none is configured
	// Scratch is the policy's own memory between turns.
	Scratch any

	ep *episode
}

// ModelCall is one request to a model endpoint.
type ModelCall struct {
	Endpoint string // endpoint name
	Alias    string // what the orchestrator called it, or "orchestrator"
	Purpose  string // e.g. "decide", "search query", "answer"
	Body     []byte // the request body, sent as is
}

// Steps returns the trace so far.
func (s *State) Steps() []Step { return s.ep.run.Steps }

// Tool returns the offered tool called name.
func (s *State) Tool(name string) (*Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// Observe records a note in the trace: an invalid call, a skipped action.
func (s *State) Observe(text string) {
	s.ep.record(Step{Kind: StepObservation, Text: text})
}

// CallModel sends one request through the guard and records the step. Its
// error is also recorded; the policy decides what it means for the turn.
func (s *State) CallModel(ctx context.Context, call ModelCall) (*ModelReply, error) {
	step := Step{Kind: StepModel, Alias: call.Alias, Endpoint: call.Endpoint, Purpose: call.Purpose}
	m, ok := s.ep.models.Get(call.Endpoint)
	if !ok {
		err := &GuardError{Target: "model " + call.Endpoint, Reason: "not configured"}
		step.Error = err.Error()
		s.ep.record(step)
		return nil, err
	}
	info := m.Info()
	step.Model, step.Locality = info.ModelID, info.Locality
	if ok, reason := s.ep.guard.AllowModel(info); !ok {
		err := &GuardError{Target: "model " + call.Endpoint, Reason: reason}
		step.Error = err.Error()
		s.ep.record(step)
		return nil, err
	}
	if s.ep.keepBodies {
		step.Request = call.Body
	}
	reply, err := m.Complete(ctx, call.Body)
	if err != nil {
		step.Error = err.Error()
		s.ep.record(step)
		return nil, err
	}
	step.TokensIn, step.TokensOut, step.Estimated = reply.TokensIn, reply.TokensOut, reply.Estimated
	step.USD = info.CostUSD(reply.TokensIn, reply.TokensOut)
	step.Wall = reply.Duration
	step.Response, step.ToolCalls = reply.Content, reply.ToolCalls
	s.ep.record(step)
	return reply, nil
}

// CallTool calls a catalog tool through the guard and records the step.
func (s *State) CallTool(ctx context.Context, name string, args json.RawMessage, purpose string) (*CallResult, error) {
	step := Step{Kind: StepTool, Tool: name, Purpose: purpose}
	tool, ok := s.ep.tools.Snapshot().Lookup(name)
	if ok {
		step.Locality = tool.Locality
		if allowed, reason := s.ep.guard.AllowTool(tool); !allowed {
			ok = false
			step.Error = (&GuardError{Target: "tool " + name, Reason: reason}).Error()
		}
	}
	if !ok {
		if step.Error == "" {
			step.Error = (&GuardError{Target: "tool " + name, Reason: "not in the catalog"}).Error()
		}
		s.ep.record(step)
		return nil, &GuardError{Target: "tool " + name, Reason: step.Error}
	}
	start := time.Now()
	res, err := s.ep.tools.Call(ctx, name, args, CallOptions{})
	step.Wall = time.Since(start)
	step.USD = tool.CostPerCall
	if err != nil {
		step.Error = err.Error()
	} else {
		step.Response = ResultText(res.Raw, s.ep.maxResultChars)
		if res.IsError {
			step.Error = "tool reported an error"
		}
	}
	s.ep.record(step)
	return res, err
}
