package policies_test

import (
	"errors"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

const (
	actTool   = conductor.ActTool
	actModel  = conductor.ActModel
	actAnswer = conductor.ActAnswer
	actEnd    = conductor.ActEndTurn
	actFail   = conductor.ActFail
)

var search = []string{policies.ToolSearchDocuments}

func TestOrchestratorResearchChoices(t *testing.T) {
	decide := want{kind: actModel, endpoint: "orch", alias: "orchestrator", purpose: "decide"}
	cases := []struct {
		name  string
		st    *conductor.State
		feeds []feed
	}{
		{"search: the query writer, then the search tool with its query, then the evidence",
			pureState(conductor.ModeResearch, true, search, policies.RoleSearch, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, modelReply(t, "", call{"search", `{"model":"search-1"}`}), want{kind: actModel, endpoint: "big", alias: "search-1",
					purpose: "search query", body: []string{"Question: What is the capital of France?", "<query>"}}},
				{1, modelReply(t, "<query>capital of France</query>"), want{kind: actTool, tool: "search_documents",
					args: `{"query":"capital of France"}`, purpose: "search"}},
				{1, toolResult("Paris is the capital of France."), want{kind: actEnd, notes: `search "capital of France": 1 results, 1 new documents`}},
				{2, nil, want{kind: actModel, endpoint: "orch", purpose: "decide", body: []string{"Paris is the capital of France."}}},
				{2, modelReply(t, "", call{"answer", `{"model":"answer-1"}`}), want{kind: actModel, alias: "answer-1", purpose: "answer",
					body: []string{"Doc 1: Paris is the capital of France."}}},
				{2, modelReply(t, `so \boxed{Paris}`), want{kind: actAnswer, answer: "Paris"}},
			}},
		{"invalid calls are noted and the first valid one runs",
			pureState(conductor.ModeResearch, true, search, policies.RoleSearch, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, modelReply(t, "", call{"web_browse", `{}`}, call{"search", `{"model":"search-1"}`}, call{"answer", `{"model":"answer-1"}`}),
					want{kind: actModel, alias: "search-1", notes: `invalid tool call: unknown tool "web_browse"`}},
			}},
		{"a failed query writer searches the task text; no search tool is noted",
			pureState(conductor.ModeResearch, true, nil, policies.RoleSearch, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, modelReply(t, "", call{"search", `{"model":"search-1"}`}), want{kind: actModel, alias: "search-1"}},
				{1, &conductor.Outcome{Kind: actModel, Err: errors.New("502 from the model")},
					want{kind: actEnd, notes: "no search tool is available\nsearch \"What is the capital of France?\": 0 results, 0 new documents"}},
			}},
		{"the reasoner's code runs on python and a silent run is noted",
			pureState(conductor.ModeResearch, true, []string{policies.ToolPython}, policies.RoleReason, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, modelReply(t, "", call{"enhance_reasoning", `{"model":"reasoner-1"}`}), want{kind: actModel, alias: "reasoner-1", purpose: "python code"}},
				{1, modelReply(t, "```python\nx = 1\n```"), want{kind: actTool, tool: "python", args: `{"code":"\nx = 1\n"}`, purpose: "run code"}},
				{1, toolResult(""), want{kind: actEnd, notes: "the code printed nothing"}},
			}},
		{"a withheld model keeps its alias: answer-1 is refused saying why, and answer-2 runs (protocol §10)",
			withheldState(conductor.ModeResearch, search, policies.RoleAnswer), []feed{
				{1, nil, want{kind: actModel, endpoint: "orch", purpose: "decide", body: []string{`Choices: ['answer-2']`}}},
				{1, modelReply(t, "", call{"answer", `{"model":"answer-1"}`}), want{kind: actEnd,
					notes: `invalid tool call: alias "answer-1" is not offered for answer: remote, and privacy is local-only`}},
				{2, nil, decide},
				{2, modelReply(t, "", call{"answer", `{"model":"answer-2"}`}), want{kind: actModel, endpoint: "big", alias: "answer-2", purpose: "answer"}},
			}},
		{"without an answer model the episode is refused before the orchestrator is asked",
			pureState(conductor.ModeResearch, true, search, policies.RoleSearch), []feed{
				{1, nil, want{kind: actFail}},
			}},
		{"an unreadable reply consumes the turn",
			pureState(conductor.ModeResearch, true, search, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, &conductor.Outcome{Kind: actModel, Reply: &llm.ModelReply{Body: []byte("not json")}}, want{kind: actEnd, notes: "orchestrator reply unreadable"}},
				{2, nil, decide},
			}},
		{"an unreachable orchestrator hands the turn to the fallback, whose answer is forced",
			pureState(conductor.ModeResearch, true, search, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, &conductor.Outcome{Kind: actModel, Err: &llm.ModelUnreachableError{URL: "http://orch"}},
					want{kind: actTool, tool: "search_documents", notes: "the orchestrator is unreachable (http://orch); using the fallback policy"}},
				{1, toolResult("Paris."), want{kind: actModel, endpoint: "big", purpose: "answer", body: []string{"Paris."}}},
				{1, modelReply(t, `\boxed{Paris}`), want{kind: actAnswer, answer: "Paris", forced: true}},
			}},
		{"an orchestrator still loading after the engine's wait hands the turn to the fallback",
			pureState(conductor.ModeResearch, true, search, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, &conductor.Outcome{Kind: actModel, Err: &llm.ModelLoadingError{URL: "http://orch", Err: errors.New("503")}},
					want{kind: actTool, tool: "search_documents", notes: "the orchestrator is still loading (http://orch); using the fallback policy"}},
			}},
		{"a cancelled call is no reason to fall back",
			pureState(conductor.ModeResearch, true, search, policies.RoleAnswer), []feed{
				{1, nil, decide},
				{1, &conductor.Outcome{Kind: actModel, Err: &llm.ModelUnreachableError{URL: "http://orch"}, Cancelled: true}, want{kind: actEnd}},
			}},
		{"no orchestrator: the fallback from the start",
			pureState(conductor.ModeResearch, false, nil, policies.RoleAnswer), []feed{
				{1, nil, want{kind: actModel, endpoint: "big", purpose: "answer",
					notes: "no orchestrator model is configured or allowed; using the fallback policy\nno search tool is available"}},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { drive(t, &policies.Orchestrator{}, tc.st, tc.feeds) })
	}
}
