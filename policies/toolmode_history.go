package policies

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolhub/toolhub/conductor"
)

// turnCall is one call of a reply as the history keeps it: a call to run,
// or, when refusal is set, a rejected call answered with that error.
type turnCall struct {
	Call
	refusal string
}

// historyCalls lists, in the order the model wrote them, the calls that go
// into the history's tool_calls: those that run and those rejected with a
// name and arguments the model wrote (an unknown tool, an expert not
// offered). As in the τ² harness, such a rejected call is kept and answered
// with an error, so the next request tells the model what went wrong
// instead of repeating the last one (protocol §4, "History"). Valid calls
// that do not run (past the cap of 5) are left out, as the reference
// truncates the list. A call that could not be read (a truncated block, bad
// JSON, no name) has no name or arguments to list: it is returned in
// unread, for an error message that quotes what the model wrote.
func historyCalls(cands []Candidate, d ToolModeDecision) (calls []turnCall, unread []Candidate) {
	calls = make([]turnCall, 0, len(d.Calls)+len(d.Rejected))
	for _, c := range d.Calls {
		calls = append(calls, turnCall{Call: c})
	}
	for _, r := range d.Rejected {
		c := cands[r.Index]
		switch {
		case r.Ignored:
		case c.Err != nil:
			unread = append(unread, c)
		default:
			calls = append(calls, turnCall{Call: Call{Index: r.Index, ID: c.ID, Name: c.Name, Arguments: c.Arguments}, refusal: r.Reason})
		}
	}
	slices.SortStableFunc(calls, func(a, b turnCall) int { return a.Index - b.Index })
	return calls, unread
}

// startCalls appends the reply's turn to the history and sends the first
// call that runs. The assistant message lists the calls of historyCalls;
// each result, or the error of a rejected call, follows as a tool message
// with the call's id (protocol §4, "History"). Calls that could not be read
// are never listed with a made-up name or arguments, which a strict
// OpenAI-compatible server would refuse or the model would take for its
// own: when no call is listed, the assistant message keeps the reply's
// content as the model sent it, and a user message after the results says
// what could not be read.
func (mem *OrchestratorMemory) startCalls(st *conductor.State, content string, cands []Candidate, d ToolModeDecision) conductor.Action {
	calls, unread := historyCalls(cands, d)
	mem.unread = unreadError(unread)
	assistant := Message{Role: RoleAssistant}
	for i := range calls {
		if calls[i].ID == "" {
			calls[i].ID = "call-" + strconv.Itoa(st.Turn) + "-" + strconv.Itoa(i+1)
		}
		assistant.ToolCalls = append(assistant.ToolCalls, ToolCall{ID: calls[i].ID, Type: "function",
			Function: FunctionCall{Name: calls[i].Name, Arguments: Arguments(calls[i].Arguments)}})
	}
	if len(calls) == 0 {
		assistant.Content = content
	}
	if len(assistant.ToolCalls) > 0 || strings.TrimSpace(assistant.Content) != "" {
		mem.history = append(mem.history, assistant)
	}
	mem.calls, mem.next, mem.phase = calls, 0, phaseCalls
	return mem.nextCall()
}

// nextCall answers the rejected calls in order and sends the next call
// that runs, or ends the turn once every call is answered (protocol §4:
// all returned calls run, at most 5), adding the error of the calls that
// could not be read.
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
	if mem.unread != "" {
		mem.history = append(mem.history, Message{Role: RoleUser, Content: mem.unread})
		mem.unread = ""
	}
	return endTurn()
}

// maxQuotedCall caps what an error quotes of a call that could not be read.
const maxQuotedCall = 500

// unreadError is the message telling the model which of its calls could
// not be read, why, and what it wrote; "" when every call was read.
func unreadError(unread []Candidate) string {
	lines := make([]string, 0, len(unread))
	for _, c := range unread {
		lines = append(lines, fmt.Sprintf("error: a tool call could not be read and did not run (%v); you wrote: %s", c.Err, quoteCall(c)))
	}
	return strings.Join(lines, "\n")
}

// quoteCall is a call as the model wrote it: the block's text, or for a
// call the server parsed, its name and arguments string.
func quoteCall(c Candidate) string {
	text := c.Raw
	if c.Source == SourceToolCalls {
		name, _ := json.Marshal(c.Name)
		text = fmt.Sprintf(`{"name": %s, "arguments": %s}`, name, c.Raw)
	}
	return firstRunes(text, maxQuotedCall)
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
