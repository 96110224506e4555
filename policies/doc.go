// Package policies decides what the hub does next in an episode: the
// Orchestrator-8B policy, baselines and fallbacks, preferences, pricing and
// rewards. It imports only hub types.
//
// The Orchestrator-8B wire formats (docs/orchestrator-protocol.md) are pure
// functions here, rendered exactly as the model was trained on them:
//
//   - research mode: ResearchTools (search, enhance_reasoning, answer, each
//     taking an alias), ResearchMessages (two fresh messages rebuilt from a
//     ResearchState within the reference token budgets) and ResearchRequest;
//     the experts' sub-prompts SearchPrompt, ReasonPrompt and AnswerPrompt with
//     ExpertBudgetFor, and the extractors ExtractQuery, ExtractPython,
//     ExtractBoxed and ExtractTagged;
//   - tool mode: ToolModeSystem, ToolModeTools (MCP tools plus call_expert),
//     ToolModeMessages (history with the middle cut) and ToolModeRequest;
//   - replies: ParseReply reads tool_calls or raw <tool_call> blocks, then
//     SelectResearchCall or SelectToolModeCalls decide what runs and say why
//     every other candidate does not.
//
// The policies only choose. Each is a conductor.Chooser with typed memory
// (OrchestratorMemory, RetrieveMemory): Decide reads the state, its memory
// and the outcome of the previous action and returns the next action — a
// tool call, a model request, an answer or the end of the turn — and the
// conductor runs it under the guard and the limits. Orchestrator is a
// small phase machine over one turn (orchestrator, expert, tool: protocol
// §3.6–3.7; up to five tool calls: §4); its fallback is any Fallback.
//
// Request and response bodies are this package's own mirror of the OpenAI
// Chat Completions JSON (ChatRequest, ChatResponse); EncodeRequest renders a
// body as sent.
package policies
