package policies

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// toolsStep is one decision of a tool-mode turn (protocol §4): the offered
// MCP tools plus call_expert; a reply without a tool call is the final
// answer. Up to 5 tool calls run per turn.
func (o *Orchestrator) toolsStep(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) conductor.Action {
	if mem.phase == phaseStart {
		mem.table, mem.specs = aliasesFor(st.Models, RoleExpert), toolSpecs(st.Tools)
	}
	experts, specs := mem.table, mem.specs
	switch mem.phase {
	case phaseStart:
		if len(mem.history) == 0 {
			mem.history = []Message{{Role: RoleUser, Content: ProblemWithPreferences(st.Task, o.sentences(st))}}
		}
		tools := ToolModeTools(specs, experts.aliases)
		msgs := ToolModeMessages(ToolModeSystem(o.policyText(specs), experts.aliases), mem.history, tools, o.counter())
		return o.orchestratorCall(st, mem, ToolModeRequest(st.Orchestrator.ModelID, o.Temperature, msgs, tools))
	case phaseDecide:
		msg, a, ok := o.orchestratorReply(st, mem, last)
		if !ok {
			return a
		}
		parsed := ParseReply(msg)
		if len(parsed.Candidates) == 0 {
			return mem.finalMessage(parsed, "the orchestrator")
		}
		d := SelectToolModeCalls(parsed.Candidates, specNames(specs), aliasNames(experts.aliases))
		mem.noteRejections(d.Rejected)
		if d.Expert != nil {
			alias, _ := FindAlias(experts.aliases, d.Expert.Alias)
			return o.askExpert(st, mem, specs, alias, experts.endpoint[alias.Name])
		}
		if len(d.Calls) == 0 {
			mem.note("no valid tool call in the orchestrator's reply")
		}
		return mem.startCalls(st, historyCalls(parsed.Candidates, d))
	case phaseExpert:
		return mem.expertReply(st, specs, last)
	case phaseCalls:
		mem.history = append(mem.history, Message{Role: RoleTool, ToolCallID: mem.calls[mem.next-1].ID, Content: toolContent(last)})
		return mem.nextCall()
	}
	return endTurn()
}

// finalMessage ends the episode with a reply that made no tool call: its
// message goes to the user (protocol §4, "End"). A reply with no message
// either is no answer: the turn is consumed and noted (§3.6 step 5).
func (mem *OrchestratorMemory) finalMessage(parsed ParsedReply, who string) conductor.Action {
	if parsed.Message == "" {
		mem.note("empty reply: " + who + " sent neither a message nor a tool call")
		return endTurn()
	}
	return conductor.Action{Kind: conductor.ActAnswer, Answer: parsed.Message}
}

// askExpert hands the turn to an expert (protocol §4, "Reading a reply"):
// it sees the original conversation (toolhub's policy without the expert
// paragraph or the suffix) and the original tools (no call_expert); its reply replaces
// the orchestrator's action.
func (o *Orchestrator) askExpert(st *conductor.State, mem *OrchestratorMemory, specs []ToolSpec, alias Alias, endpoint string) conductor.Action {
	tools := ToolModeTools(specs, nil)
	msgs := ToolModeMessages(ExpertSystem(o.policyText(specs)), mem.history, tools, o.counter())
	body, err := EncodeRequest(forOpenAIReasoning(ToolModeRequest(modelID(st, endpoint), o.Temperature, msgs, tools)))
	if err != nil {
		return fail(fmt.Errorf("render expert request: %w", err))
	}
	mem.phase = phaseExpert
	return conductor.Action{Kind: conductor.ActModel, Model: conductor.ModelCall{
		Endpoint: endpoint, Alias: alias.Name, Purpose: "expert", Role: RoleExpert, Body: body}}
}

// expertReply reads the expert's reply (protocol §4): its message, which
// ends the episode, or its tool calls, which run as the orchestrator's.
func (mem *OrchestratorMemory) expertReply(st *conductor.State, specs []ToolSpec, last *conductor.Outcome) conductor.Action {
	if last.Err != nil {
		return endTurn()
	}
	msg, err := decodeMessage(last.Reply.Body)
	if err != nil {
		mem.note("expert reply unreadable: " + err.Error())
		return endTurn()
	}
	parsed := ParseReply(msg)
	if len(parsed.Candidates) == 0 {
		return mem.finalMessage(parsed, "the expert")
	}
	d := SelectToolModeCalls(parsed.Candidates, specNames(specs), nil)
	mem.noteRejections(d.Rejected)
	return mem.startCalls(st, historyCalls(parsed.Candidates, d))
}

// turnCall is one call of a reply as the history keeps it: a call to run,
// or, when refusal is set, a rejected call answered with that error.
type turnCall struct {
	Call
	refusal string
}

// historyCalls lists, in the order the model wrote them, the calls that go
// into the history: those that run and those rejected as invalid (an
// unknown tool, an expert not offered, bad arguments). As in the τ²
// harness, a rejected call is kept and answered with an error, so the next
// request tells the model what went wrong instead of repeating the last
// one (protocol §4, "History"). Valid calls that do not run (past the cap
// of 5) are left out, as the reference truncates the list.
func historyCalls(cands []Candidate, d ToolModeDecision) []turnCall {
	out := make([]turnCall, 0, len(d.Calls)+len(d.Rejected))
	for _, c := range d.Calls {
		out = append(out, turnCall{Call: c})
	}
	for _, r := range d.Rejected {
		if r.Ignored {
			continue
		}
		c := cands[r.Index]
		out = append(out, turnCall{Call: Call{Index: r.Index, ID: c.ID, Name: c.Name, Arguments: c.Arguments}, refusal: r.Reason})
	}
	slices.SortStableFunc(out, func(a, b turnCall) int { return a.Index - b.Index })
	return out
}

// startCalls appends the assistant's calls to the history and sends the
// first that runs; each result, or the error of a rejected call, follows
// as a tool message with the call's id (protocol §4, "History").
func (mem *OrchestratorMemory) startCalls(st *conductor.State, calls []turnCall) conductor.Action {
	if len(calls) == 0 {
		return endTurn()
	}
	assistant := Message{Role: RoleAssistant}
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = "call-" + strconv.Itoa(st.Turn) + "-" + strconv.Itoa(i+1)
		}
		args := calls[i].Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`) // unreadable arguments: the error says why
		}
		assistant.ToolCalls = append(assistant.ToolCalls, ToolCall{ID: calls[i].ID, Type: "function",
			Function: FunctionCall{Name: calls[i].Name, Arguments: Arguments(args)}})
	}
	mem.history = append(mem.history, assistant)
	mem.calls, mem.next, mem.phase = calls, 0, phaseCalls
	return mem.nextCall()
}

// nextCall answers the rejected calls in order and sends the next call
// that runs, or ends the turn once every call is answered (protocol §4:
// all returned calls run, at most 5).
func (mem *OrchestratorMemory) nextCall() conductor.Action {
	for mem.next < len(mem.calls) {
		c := mem.calls[mem.next]
		mem.next++
		if c.refusal != "" {
			mem.history = append(mem.history, Message{Role: RoleTool, ToolCallID: c.ID, Content: "error: " + c.refusal})
			continue
		}
		return conductor.Action{Kind: conductor.ActTool, Tool: c.Name, Args: c.Arguments, Purpose: "tool call"}
	}
	return endTurn()
}

// toolContent is a tool call's outcome as the history shows it: text parts
// joined and capped, an error prefixed "error: " (protocol §4, "Mapping to
// MCP").
func toolContent(last *conductor.Outcome) string {
	switch {
	case last.Err != nil:
		return "error: " + last.Err.Error()
	case last.Result.IsError:
		return "error: " + conductor.ResultText(last.Result.Raw, maxToolResultChars)
	}
	return conductor.ResultText(last.Result.Raw, maxToolResultChars)
}

// maxToolResultChars caps one tool result in the history: results are
// untrusted text and the history has a token budget.
const maxToolResultChars = 16000

func (mem *OrchestratorMemory) noteRejections(rejected []Rejection) {
	for _, r := range rejected {
		mem.note(r.Observation())
	}
}

func toolSpecs(tools []*hub.Tool) []ToolSpec {
	specs := make([]ToolSpec, 0, len(tools))
	for _, t := range tools {
		specs = append(specs, ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, Locality: t.Locality})
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
