package conductor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// act runs a tool or model action and returns its outcome, after recording
// the action's notes.
func (ep *episode) act(ctx context.Context, st *State, a Action) *Outcome {
	for _, n := range a.Notes {
		ep.observe(n)
	}
	var out *Outcome
	switch a.Kind {
	case ActTool:
		out = ep.callTool(ctx, st, a.Tool, a.Args, a.Purpose)
	case ActModel:
		out = ep.callModel(ctx, a.Model)
	default:
		return nil
	}
	out.Kind = a.Kind
	out.Cancelled = ctx.Err() != nil
	return out
}

// observe records a note in the trace: an invalid call, a skipped action.
func (ep *episode) observe(text string) {
	ep.record(Step{Kind: StepObservation, Text: text})
}

// callModel sends one request through the guard and the budget and
// records the step, its error included (protocol §6: tokens, USD and wall
// time per step). Its duration feeds the latency shown for the alias role
// it was made for.
func (ep *episode) callModel(ctx context.Context, call ModelCall) *Outcome {
	step := Step{Kind: StepModel, Alias: call.Alias, Endpoint: call.Endpoint, Purpose: call.Purpose}
	m, ok := ep.models.Get(call.Endpoint)
	if !ok {
		return ep.refuse(step, &GuardError{Target: "model " + call.Endpoint, Reason: "not configured"})
	}
	info := m.Info()
	step.Model, step.Locality = info.ModelID, info.Locality
	if err := ep.checkModel(info, call.Role); err != nil {
		return ep.refuse(step, err)
	}
	body, err := ep.admitModel(info, ep.requestBody(call))
	if err != nil {
		return ep.refuse(step, err)
	}
	if ep.keepBodies {
		step.Request = body
	}
	if !ep.backOff(ctx, call.Endpoint) {
		return &Outcome{Err: fmt.Errorf("model %s not called again: %w", call.Endpoint, context.Cause(ctx))}
	}
	reply, err := ep.completeWhenLoaded(ctx, m, call.Role, body)
	if err != nil {
		step.Error = err.Error()
		ep.record(step)
		if ctx.Err() == nil {
			ep.failures.failed(call.Endpoint)
		}
		return &Outcome{Err: err}
	}
	ep.failures.succeeded(call.Endpoint)
	step.TokensIn, step.TokensOut, step.Estimated = reply.TokensIn, reply.TokensOut, reply.Estimated
	step.USD = info.CostUSD(reply.TokensIn, reply.TokensOut)
	step.CostUnknown = reply.CostUnknown
	step.Wall = reply.Duration
	step.Response, step.ToolCalls = reply.Content, reply.ToolCalls
	if ep.keepBodies {
		step.Reply = reply.Body
	}
	ep.record(step)
	ep.settle()
	return &Outcome{Reply: reply}
}

// requestBody is the body call sends: the policy's own, except for the
// first request to the orchestrator of a replay, which is sent as recorded
// (and noted when the policy would now send another).
func (ep *episode) requestBody(call ModelCall) []byte {
	if ep.replayFirst == nil || call.Endpoint != ep.orchestrator {
		return call.Body
	}
	body := ep.replayFirst
	ep.replayFirst = nil
	if !bytes.Equal(body, call.Body) {
		ep.observe("replay: the recorded first request differs from the one the policy renders now; later turns follow the policy's own")
	}
	return body
}

// refuse records a call that was not made and returns why.
func (ep *episode) refuse(step Step, err error) *Outcome {
	step.Error, step.Refused = err.Error(), true
	ep.record(step)
	return &Outcome{Err: err}
}

// callTool calls an offered catalog tool through the guard and the budget
// and records the step.
func (ep *episode) callTool(ctx context.Context, st *State, name string, args json.RawMessage, purpose string) *Outcome {
	step := Step{Kind: StepTool, Tool: name, Purpose: purpose, Args: args}
	tool, err := ep.checkTool(st, name)
	if tool != nil {
		step.Locality = tool.Locality
	}
	if err == nil {
		err = ep.admit(tool.CostPerCall, "tool "+name)
	}
	if err != nil {
		return ep.refuse(step, err)
	}
	start := time.Now()
	res, err := ep.tools.Call(ctx, name, args, hub.CallOptions{})
	step.Wall = time.Since(start)
	step.USD = tool.CostPerCall + tool.CostPerSecond*step.Wall.Seconds()
	if err != nil {
		step.Error = err.Error()
	} else {
		step.Response = ResultText(res.Raw, ep.maxResultChars)
		if res.IsError {
			step.Error = "tool reported an error"
		}
	}
	ep.record(step)
	ep.settle()
	if err != nil {
		return &Outcome{Err: err}
	}
	return &Outcome{Result: res}
}

// checkModel asks the guard about the endpoint and, for a call made for a
// role, whether the guard left the model that role.
func (ep *episode) checkModel(info llm.ModelInfo, role string) error {
	if ok, reason := ep.guard.AllowModel(info); !ok {
		return &GuardError{Target: "model " + info.Name, Reason: reason}
	}
	if role != "" && info.HasRole(role) && !slices.Contains(modelRoles(ep.guard, info), role) {
		return &GuardError{Target: "model " + info.Name, Reason: "not offered for the " + role + " role"}
	}
	return nil
}

// checkTool returns the catalog tool when it was offered this episode and
// the guard still allows it.
func (ep *episode) checkTool(st *State, name string) (*hub.Tool, error) {
	tool, ok := ep.tools.Snapshot().Lookup(name)
	if !ok {
		return nil, &GuardError{Target: "tool " + name, Reason: "not in the catalog"}
	}
	if allowed, reason := ep.guard.AllowTool(tool); !allowed {
		return tool, &GuardError{Target: "tool " + name, Reason: reason}
	}
	if _, offered := st.Tool(name); !offered {
		return tool, &GuardError{Target: "tool " + name, Reason: "not offered in this episode"}
	}
	return tool, nil
}
