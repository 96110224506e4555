package policies

import (
	"fmt"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// toolsStep is one decision of a tool-mode turn (protocol §4): the offered
// MCP tools plus call_expert; a reply without a tool call is the final
// answer. Up to 5 tool calls run per turn.
func (o *Orchestrator) toolsStep(st *conductor.State, mem *OrchestratorMemory, last *conductor.Outcome) conductor.Action {
	if mem.phase == phaseStart {
		mem.table, mem.specs = aliasesFor(st.Roster, st.Models, st.Withheld, RoleExpert), toolSpecs(st.Tools)
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
		mem.noteRejections(experts.explain(d.Rejected))
		if d.Expert != nil {
			alias, _ := FindAlias(experts.aliases, d.Expert.Alias)
			return o.askExpert(st, mem, specs, alias, experts.endpoint[alias.Name])
		}
		if len(d.Calls) == 0 {
			mem.note("no valid tool call in the orchestrator's reply")
		}
		return mem.startCalls(st, msg.Content, parsed.Candidates, d)
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
	return mem.startCalls(st, msg.Content, parsed.Candidates, d)
}

// maxToolResultChars caps one tool result in the history: results are
// untrusted text and the history has a token budget.
const maxToolResultChars = 16000

func (mem *OrchestratorMemory) noteRejections(rejected []Rejection) {
	for _, r := range rejected {
		mem.note(r.Observation())
	}
}

// toolSpecs are the tools offered in tool mode: the episode's tools minus
// τ²'s hand-off tool (protocol §4), which is then neither listed nor run.
func toolSpecs(tools []*hub.Tool) []ToolSpec {
	specs := make([]ToolSpec, 0, len(tools))
	for _, t := range tools {
		if isTransferTool(t.Name) {
			continue
		}
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
