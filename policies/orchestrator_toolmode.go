package policies

import (
	"context"
	"strconv"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// decideTools runs one tool-mode turn (protocol §4): the offered MCP tools
// plus call_expert; a reply without a tool call is the final answer.
func (o *Orchestrator) decideTools(ctx context.Context, st *conductor.State, mem *orchestratorMemory) (conductor.Decision, error) {
	experts := aliasesFor(st.Models, RoleExpert)
	specs := toolSpecs(st.Tools)
	if len(mem.history) == 0 {
		mem.history = []Message{{Role: RoleUser, Content: ProblemWithPreferences(st.Task, o.sentences(st))}}
	}
	tools := ToolModeTools(specs, experts.aliases)
	msgs := ToolModeMessages(ToolModeSystem(o.PolicyText, experts.aliases), mem.history, tools, o.counter())
	msg, ok, err := o.callOrchestrator(ctx, st, ToolModeRequest(st.Orchestrator.ModelID, o.Temperature, msgs, tools))
	if err != nil {
		return o.orchestratorError(ctx, st, mem, err)
	}
	if !ok {
		return conductor.Decision{}, nil
	}
	parsed := ParseReply(msg)
	if len(parsed.Candidates) == 0 {
		return conductor.Decision{Final: true, Answer: parsed.Message}, nil
	}
	d := SelectToolModeCalls(parsed.Candidates, specNames(specs), aliasNames(experts.aliases))
	observeRejections(st, d.Rejected)
	if d.Expert != nil {
		alias, _ := FindAlias(experts.aliases, d.Expert.Alias)
		return o.runExpert(ctx, st, mem, specs, alias, experts.endpoint[alias.Name])
	}
	if len(d.Calls) == 0 {
		st.Observe("no valid tool call in the orchestrator's reply")
		return conductor.Decision{}, nil
	}
	runToolCalls(ctx, st, mem, d.Calls)
	return conductor.Decision{}, nil
}

// runExpert hands the turn to an expert: it sees the original conversation
// (toolhub's policy without the expert paragraph) and the original tools (no
// call_expert); its reply replaces the orchestrator's action.
func (o *Orchestrator) runExpert(ctx context.Context, st *conductor.State, mem *orchestratorMemory, specs []ToolSpec, alias Alias, endpoint string) (conductor.Decision, error) {
	tools := ToolModeTools(specs, nil)
	msgs := ToolModeMessages(ExpertSystem(o.PolicyText), mem.history, tools, o.counter())
	body, err := EncodeRequest(ToolModeRequest(modelID(st, endpoint), o.Temperature, msgs, tools))
	if err != nil {
		return conductor.Decision{}, err
	}
	reply, err := st.CallModel(ctx, conductor.ModelCall{Endpoint: endpoint, Alias: alias.Name, Purpose: "expert", Role: RoleExpert, Body: body})
	if err != nil {
		return conductor.Decision{}, nil
	}
	msg, err := decodeMessage(reply.Body)
	if err != nil {
		st.Observe("expert reply unreadable: " + err.Error())
		return conductor.Decision{}, nil
	}
	parsed := ParseReply(msg)
	if len(parsed.Candidates) == 0 {
		return conductor.Decision{Final: true, Answer: parsed.Message}, nil
	}
	d := SelectToolModeCalls(parsed.Candidates, specNames(specs), nil)
	observeRejections(st, d.Rejected)
	runToolCalls(ctx, st, mem, d.Calls)
	return conductor.Decision{}, nil
}

// runToolCalls appends the assistant's calls to the history, runs each and
// appends its result (or error) as a tool message.
func runToolCalls(ctx context.Context, st *conductor.State, mem *orchestratorMemory, calls []Call) {
	if len(calls) == 0 {
		return
	}
	assistant := Message{Role: RoleAssistant}
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = "call-" + strconv.Itoa(st.Turn) + "-" + strconv.Itoa(i+1)
		}
		assistant.ToolCalls = append(assistant.ToolCalls, ToolCall{ID: calls[i].ID, Type: "function",
			Function: FunctionCall{Name: calls[i].Name, Arguments: Arguments(calls[i].Arguments)}})
	}
	mem.history = append(mem.history, assistant)
	for _, c := range calls {
		var content string
		res, err := st.CallTool(ctx, c.Name, c.Arguments, "tool call")
		switch {
		case err != nil:
			content = "error: " + err.Error()
		case res.IsError:
			content = "error: " + conductor.ResultText(res.Raw, maxToolResultChars)
		default:
			content = conductor.ResultText(res.Raw, maxToolResultChars)
		}
		mem.history = append(mem.history, Message{Role: RoleTool, ToolCallID: c.ID, Content: content})
	}
}

// maxToolResultChars caps one tool result in the history: results are
// untrusted text and the history has a token budget.
const maxToolResultChars = 16000

func observeRejections(st *conductor.State, rejected []Rejection) {
	for _, r := range rejected {
		st.Observe(r.Observation())
	}
}

func toolSpecs(tools []*hub.Tool) []ToolSpec {
	specs := make([]ToolSpec, 0, len(tools))
	for _, t := range tools {
		specs = append(specs, ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	return specs
}

func specNames(specs []ToolSpec) []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

func modelID(st *conductor.State, endpoint string) string {
	for _, m := range st.Models {
		if m.Name == endpoint {
			return m.ModelID
		}
	}
	return ""
}
