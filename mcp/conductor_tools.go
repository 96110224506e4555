package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
)

const preferenceHelp = `optional, may only tighten the saved preferences: "local-only", "prefer-local", ` +
	`"any" (nothing stricter), "cheap", "fast", several at once ("local-only cheap"), or an object such as ` +
	`{"privacy": "local-only", "cost_weight": 0.8, "budget_usd": 0.05}`

// The names of toolhub's own conductor tools.
const (
	OrchestrateToolName = "orchestrate"
	ResearchToolName    = "research"
)

// ownTool reports whether name is one of toolhub's own tools, which are
// served here rather than forwarded to the catalog.
func ownTool(name string) bool {
	switch name {
	case FindToolsName, DescribeToolName, CallToolName, OrchestrateToolName, ResearchToolName:
		return true
	}
	return false
}

func orchestrateTool() mcpgo.Tool {
	return conductorTool(OrchestrateToolName, "task", "the task, in plain words", "this task",
		"Hand a multi-step task to toolhub's orchestrator model. It plans step by step and "+
			"calls the user's tools and other models, preferring cheap and local ones, within the user's privacy, "+
			"cost and latency preferences. Sends a progress notification per step and returns the answer with a "+
			"trace of every step (tool, model, locality, tokens, cost, time).")
}

func researchTool() mcpgo.Tool {
	return conductorTool(ResearchToolName, "question", "the question", "this question",
		"Answer a question by research: toolhub's orchestrator searches the user's local "+
			"documents (and the web when configured), reasons with code when useful, and picks which model "+
			"answers, within the user's privacy, cost and latency preferences. Sends a progress notification per "+
			"step and returns the answer with a trace of every step.")
}

// conductorTool is one conductor tool: its text argument, the optional
// preference and budget, and the trace as output schema.
func conductorTool(name, textArg, textHelp, budgetFor, description string) mcpgo.Tool {
	return mcpgo.NewTool(name,
		mcpgo.WithDescription(description),
		mcpgo.WithString(textArg, mcpgo.Required(), mcpgo.Description(textHelp)),
		mcpgo.WithAny("preference", mcpgo.Description(preferenceHelp)),
		mcpgo.WithNumber("budget_usd", mcpgo.Min(0), mcpgo.Description("optional spending cap for "+budgetFor+" in US dollars")),
		mcpgo.WithOutputSchema[Trace](),
		mcpgo.WithOpenWorldHintAnnotation(true),
		mcpgo.WithTaskSupport(mcpgo.TaskSupportOptional),
	)
}

// errNoRun is returned when the conductor gave neither a run nor a reason.
var errNoRun = errors.New("no run was recorded")

// episodeRequest checks the arguments of one call; textArg names the
// argument holding the task, maxBytes caps it (0: DefaultMaxTaskBytes).
func episodeRequest(req mcpgo.CallToolRequest, mode conductor.Mode, textArg string, maxBytes int) (conductor.Request, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxTaskBytes
	}
	args := req.GetArguments()
	text, _ := args[textArg].(string)
	text = strings.TrimSpace(text)
	switch {
	case text == "":
		return conductor.Request{}, fmt.Errorf("%s is empty: say what to do", textArg)
	case len(text) > maxBytes:
		return conductor.Request{}, fmt.Errorf("%s is %d bytes; the limit is %d", textArg, len(text), maxBytes)
	}
	er := conductor.Request{Task: text, Mode: mode}
	if b, ok := args["budget_usd"]; ok && b != nil {
		v, ok := b.(float64)
		if !ok || v < 0 {
			return conductor.Request{}, fmt.Errorf("budget_usd must be a number of dollars, zero or more")
		}
		er.BudgetUSD = v
	}
	if p, ok := args["preference"]; ok && p != nil {
		raw, err := json.Marshal(p)
		if err != nil {
			return conductor.Request{}, fmt.Errorf("preference: %w", err)
		}
		er.Preference = raw
	}
	return er, nil
}
