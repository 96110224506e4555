package conductor

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// State is what a policy sees and acts through during one episode. The
// offered tools and models are already filtered by the guard.
type State struct {
	RunID        string
	Task         string
	Mode         Mode
	Turn         int // current turn, from 1
	MaxTurns     int
	Tools        []*hub.Tool     // catalog tools offered this episode
	Models       []llm.ModelInfo // expert endpoints offered, with measured latency
	Orchestrator *llm.ModelInfo  // nil when none is configured or allowed
	// Preference is the task's preference sentence, for the orchestrator.
	Preference string
	// Scratch is the policy's own memory between turns.
	Scratch any

	ep *episode
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

// Steps returns the trace so far.
func (s *State) Steps() []Step { return s.ep.run.Steps }

// Tool returns the offered tool called name.
func (s *State) Tool(name string) (*hub.Tool, bool) {
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

// CallModel sends one request through the guard and the budget and
// records the step. Its error is also recorded; the policy decides what it
// means for the turn.
func (s *State) CallModel(ctx context.Context, call ModelCall) (*llm.ModelReply, error) {
	step := Step{Kind: StepModel, Alias: call.Alias, Endpoint: call.Endpoint, Purpose: call.Purpose}
	m, ok := s.ep.models.Get(call.Endpoint)
	if !ok {
		return nil, s.refuse(step, &GuardError{Target: "model " + call.Endpoint, Reason: "not configured"})
	}
	info := m.Info()
	step.Model, step.Locality = info.ModelID, info.Locality
	if err := s.checkModel(info, call.Role); err != nil {
		return nil, s.refuse(step, err)
	}
	if err := s.ep.admit(info.CostUSD(expectedTokens(call.Body)), "model "+call.Endpoint); err != nil {
		return nil, s.refuse(step, err)
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
	step.CostUnknown = reply.CostUnknown
	step.Wall = reply.Duration
	step.Response, step.ToolCalls = reply.Content, reply.ToolCalls
	s.ep.record(step)
	s.ep.settle()
	return reply, nil
}

// checkModel asks the guard about the endpoint and, for a call made for a
// role, whether the guard left the model that role.
func (s *State) checkModel(info llm.ModelInfo, role string) error {
	if ok, reason := s.ep.guard.AllowModel(info); !ok {
		return &GuardError{Target: "model " + info.Name, Reason: reason}
	}
	if role != "" && info.HasRole(role) && !slices.Contains(modelRoles(s.ep.guard, info), role) {
		return &GuardError{Target: "model " + info.Name, Reason: "not offered for the " + role + " role"}
	}
	return nil
}

// refuse records a call that was not made and returns why.
func (s *State) refuse(step Step, err error) error {
	step.Error = err.Error()
	s.ep.record(step)
	return err
}

// CallTool calls an offered catalog tool through the guard and the budget
// and records the step.
func (s *State) CallTool(ctx context.Context, name string, args json.RawMessage, purpose string) (*hub.CallResult, error) {
	step := Step{Kind: StepTool, Tool: name, Purpose: purpose}
	tool, err := s.checkTool(name)
	if tool != nil {
		step.Locality = tool.Locality
	}
	if err == nil {
		err = s.ep.admit(tool.CostPerCall, "tool "+name)
	}
	if err != nil {
		return nil, s.refuse(step, err)
	}
	start := time.Now()
	res, err := s.ep.tools.Call(ctx, name, args, hub.CallOptions{})
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
	s.ep.settle()
	return res, err
}

// checkTool returns the catalog tool when it was offered this episode and
// the guard still allows it.
func (s *State) checkTool(name string) (*hub.Tool, error) {
	tool, ok := s.ep.tools.Snapshot().Lookup(name)
	if !ok {
		return nil, &GuardError{Target: "tool " + name, Reason: "not in the catalog"}
	}
	if allowed, reason := s.ep.guard.AllowTool(tool); !allowed {
		return tool, &GuardError{Target: "tool " + name, Reason: reason}
	}
	if _, offered := s.Tool(name); !offered {
		return tool, &GuardError{Target: "tool " + name, Reason: "not offered in this episode"}
	}
	return tool, nil
}
