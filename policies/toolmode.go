package policies

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolhub/toolhub/hub"
)

// Tool-mode texts, verbatim from the τ²-Bench code of the reference
// (tau2/agent/llm_agent.py and tau2/utils/llm_utils.py).
const (
	instructionsText = "You are a customer service agent that helps the user according to the <policy> provided below.\nIn each turn you can either:\n- Send a message to the user.\n- Make a tool call.\nYou cannot do both at the same time.\n\nTry to be helpful and always follow the policy. Always make sure you generate valid JSON only."
	expertPolicy     = "You should transfer the user to an expert if you are not confident about how to reply or which tool to use. To transfer, first make a tool call to call_expert, and then choose an expert based on the task difficulty, i.e. strong expert on tricky task, and weaker expert on simpler task. Think carefully about whether you are confident to meet user expectation, or call an appropriate expert based on both expert cost and performance."
	systemSuffix     = "You are dedicated to provide the best service. Wrap thinking process between <think> </think>, message between <message> </message> and the tool call between <tool_call> </tool_call> ."
	callExpertDesc   = "Call the expert such that the user request can be better solved compared to existing functions"
	expertRole       = "The expert."
	// transferTool is τ²'s hand-off tool, never offered to the orchestrator.
	transferTool = "transfer_to_human_agents"
)

// isTransferTool reports whether a catalog name is τ²'s hand-off tool:
// under its own name (an unprefixed server) or as server__transfer_to_human_agents.
func isTransferTool(name string) bool {
	return name == transferTool || strings.HasSuffix(name, "__"+transferTool)
}

// ToolSpec is an offered MCP tool: its catalog name (server__tool), its
// description and its raw JSON input schema.
type ToolSpec struct {
	Name        string
	Description string
	InputSchema json.RawMessage
	Locality    hub.Locality // where it runs, stated in the <policy>
}

// ToolModeSystem renders the orchestrator's system message (protocol §4):
//
//	<instructions>\n{instructions}\n</instructions>\n<policy>\n{policy}\n</policy>  {suffix}
//
// policyText is toolhub's own policy (ToolModePolicy). With experts, the expert policy
// paragraph follows it (it replaces τ²'s "transfer to a human agent" text).
// The suffix asking for <think>, <message> and <tool_call> is always
// appended after two spaces, as the reference does for Qwen3-based models.
func ToolModeSystem(policyText string, experts []Alias) string {
	policy := strings.TrimSpace(policyText)
	if len(aliasesWithRole(experts, RoleExpert)) > 0 {
		policy = strings.TrimSpace(policy + "\n\n" + expertPolicy)
	}
	return instructionsAndPolicy(policy) + "  " + systemSuffix
}

// ExpertSystem renders the system message an expert sees after call_expert:
// the original policy, without the expert paragraph or the suffix.
func ExpertSystem(policyText string) string {
	return instructionsAndPolicy(strings.TrimSpace(policyText))
}

func instructionsAndPolicy(policy string) string {
	return "<instructions>\n" + instructionsText + "\n</instructions>\n<policy>\n" + policy + "\n</policy>"
}

// ToolModeTools renders the offered MCP tools as functions with their raw
// schemas, plus call_expert when any expert alias is given. Called without
// experts it gives the original tools an expert receives.
func ToolModeTools(mcpTools []ToolSpec, experts []Alias) []Tool {
	tools := make([]Tool, 0, len(mcpTools)+1)
	for _, t := range mcpTools {
		if isTransferTool(t.Name) {
			continue
		}
		tools = append(tools, functionTool(t.Name, t.Description, objectSchema(t.InputSchema)))
	}
	if mine := aliasesWithRole(experts, RoleExpert); len(mine) > 0 {
		tools = append(tools, callExpertTool(mine))
	}
	return tools
}

// callExpertTool is call_expert with the reference's schema, including the
// "Expression" title its expert property carries.
func callExpertTool(experts []Alias) Tool {
	desc := describeAliases(expertRole, expertTableIntro, experts)
	return functionTool(ToolExperts, callExpertDesc, oneStringParam("expert", "Expression", desc))
}

// objectSchema passes a downstream schema through unchanged (compacted);
// a missing or non-object schema becomes an empty object schema.
func objectSchema(schema json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(schema)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, trimmed); err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return compact.Bytes()
}

// Tool-mode request settings of the reference τ² runs.
const (
	ToolModeMaxTokens    = 8000
	toolModeHistoryLimit = 23000 // history + tool schemas, in tokens
)

// ToolModeMessages prepends the system message to the conversation and cuts
// its middle when it exceeds 23,000 − tokens(tool schemas). counter may be
// nil for the default estimate.
func ToolModeMessages(system string, history []Message, tools []Tool, counter TokenCounter) []Message {
	if counter == nil {
		counter = DefaultCounter()
	}
	msgs := make([]Message, 0, len(history)+1)
	msgs = append(msgs, Message{Role: RoleSystem, Content: system})
	msgs = append(msgs, history...)
	schemas, err := encodeJSON(tools, "")
	if err != nil {
		schemas = nil
	}
	return CutMiddleTurns(msgs, toolModeHistoryLimit-counter.Count(string(schemas)), counter)
}

// ToolModeRequest wraps a tool-mode turn into a request: tool_choice "auto",
// max_tokens 8,000, parallel tool calls allowed.
func ToolModeRequest(model string, temperature float64, msgs []Message, tools []Tool) ChatRequest {
	return toolRequest(model, temperature, msgs, tools, ToolModeMaxTokens)
}

// CutMiddleTurns is the reference's cut_middle_turns: when the messages (each
// counted as its JSON) exceed maxTokens, keep the messages that end within
// the first maxTokens/2 and those from the one holding the last maxTokens/2
// boundary on, dropping the middle. Toolhub additions: the first message
// (the system message) is always kept, and neither cut separates an
// assistant's tool calls from their tool results, so that strict
// OpenAI-compatible servers accept the history.
func CutMiddleTurns(msgs []Message, maxTokens int, counter TokenCounter) []Message {
	if counter == nil {
		counter = DefaultCounter()
	}
	ends := cumulativeTokens(msgs, counter)
	if len(msgs) == 0 || ends[len(ends)-1] <= maxTokens {
		return msgs
	}
	total, half := ends[len(ends)-1], max(maxTokens, 0)/2
	headEnd := 1
	for headEnd < len(msgs) && ends[headEnd] <= half {
		headEnd++
	}
	for headEnd > 1 && headEnd < len(msgs) && msgs[headEnd].Role == RoleTool {
		headEnd--
	}
	tailStart := headEnd
	for tailStart < len(msgs) && ends[tailStart] <= total-half {
		tailStart++
	}
	for tailStart > headEnd && tailStart < len(msgs) && msgs[tailStart].Role == RoleTool {
		tailStart--
	}
	out := make([]Message, 0, headEnd+len(msgs)-tailStart)
	out = append(out, msgs[:headEnd]...)
	return append(out, msgs[tailStart:]...)
}

// cumulativeTokens returns, per message, the token count of all messages up
// to and including it.
func cumulativeTokens(msgs []Message, counter TokenCounter) []int {
	ends := make([]int, len(msgs))
	sum := 0
	for i, m := range msgs {
		b, err := encodeJSON(m, "")
		if err != nil {
			b = []byte(m.Content)
		}
		sum += counter.Count(string(b))
		ends[i] = sum
	}
	return ends
}
