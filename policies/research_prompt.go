package policies

import (
	"strings"
)

// Research-mode request settings of the released scripts.
const (
	ResearchMaxTokens = 12000
	researchSystem    = "You are good at using tools."
	researchAsk       = "Choose an appropriate tool."
)

// ProblemWithPreferences appends the preference sentences to the task
// (hub rule: "{task}\n{sentences}", sentences joined by spaces). Blank
// sentences are dropped; with none the task is returned unchanged.
func ProblemWithPreferences(task string, sentences []string) string {
	var kept []string
	for _, s := range sentences {
		if s = strings.TrimSpace(s); s != "" {
			kept = append(kept, s)
		}
	}
	if len(kept) == 0 {
		return task
	}
	return task + "\n" + strings.Join(kept, " ")
}

// ResearchMessages builds the two fresh messages of a research-mode turn:
//
//	system: You are good at using tools.
//	user:   Problem: {problem}\n\n{context}\n\nChoose an appropriate tool.
//
// where {problem} is the task followed by the preference sentences and
// {context} is assembled from st (documents, code, attempts) within the
// reference budgets of variant v. counter may be nil for the default
// estimate.
func ResearchMessages(problem string, preferenceSentences []string, st ResearchState, counter TokenCounter, v Variant) []Message {
	if counter == nil {
		counter = DefaultCounter()
	}
	full := ProblemWithPreferences(problem, preferenceSentences)
	context := researchContext(full, st, counter, v)
	return []Message{
		{Role: RoleSystem, Content: researchSystem},
		{Role: RoleUser, Content: "Problem: " + full + "\n\n" + context + "\n\n" + researchAsk},
	}
}

// ResearchRequest wraps a research-mode turn into a request: all tools
// offered, tool_choice "auto", max_tokens 12,000. parallel_tool_calls is set
// so that llama-server returns every call the model wrote; only the first
// valid one runs.
func ResearchRequest(model string, temperature float64, msgs []Message, tools []Tool) ChatRequest {
	return toolRequest(model, temperature, msgs, tools, ResearchMaxTokens)
}

// toolRequest is a turn's request. With no tools to offer (a tool-mode
// episode whose preferences allow no tool and no expert) it names no
// tool_choice and no parallel_tool_calls either: vLLM refuses a tool_choice
// other than "none" without tools, and OpenAI refuses parallel_tool_calls.
func toolRequest(model string, temperature float64, msgs []Message, tools []Tool, maxTokens int) ChatRequest {
	req := ChatRequest{
		Model:       model,
		Messages:    msgs,
		Temperature: float64Ptr(temperature),
		MaxTokens:   maxTokens,
	}
	if len(tools) > 0 {
		parallel := true
		req.Tools, req.ToolChoice, req.ParallelToolCalls = tools, "auto", &parallel
	}
	return req
}

// researchTool is one of the three alias tools of research mode, with its
// texts verbatim from the model's training tools.json (typos included).
type researchTool struct {
	name         string
	role         string
	description  string
	roleSentence string
}

// researchToolOrder is the order of the training tools.json.
var researchToolOrder = []researchTool{
	{
		name:         ToolReason,
		role:         RoleReason,
		description:  "tool to enhance answer model reasoning. analyze the problem, write code, execute it and return intermidiate results that will help solve the problem",
		roleSentence: "The model used to reason.",
	},
	{
		name:         ToolAnswer,
		role:         RoleAnswer,
		description:  "give the final answer. Not allowed to call if documents is empty.",
		roleSentence: "The model used to answer.",
	},
	{
		name:         ToolSearch,
		role:         RoleSearch,
		description:  "Search for missing information",
		roleSentence: "The model used to search for missing information.",
	},
}

// ResearchTools renders the research-mode tools for the aliases allowed in
// this episode, each listing its aliases in the given order. A tool left with
// no alias is dropped. Aliases of other roles are ignored.
func ResearchTools(aliases []Alias) []Tool {
	var tools []Tool
	for _, rt := range researchToolOrder {
		mine := aliasesWithRole(aliases, rt.role)
		if len(mine) == 0 {
			continue
		}
		argument := describeAliases(rt.roleSentence, tableIntro, mine)
		tools = append(tools, functionTool(rt.name, rt.description, oneStringParam("model", "", argument)))
	}
	return tools
}
