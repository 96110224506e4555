package policies_test

import (
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

func TestOrchestratorToolModeChoices(t *testing.T) {
	kv := []string{"kv__get", "kv__put"}
	decide := want{kind: actModel, endpoint: "orch", alias: "orchestrator", purpose: "decide"}
	refused := &conductor.Outcome{Kind: actTool, Err: &conductor.GuardError{Target: "tool kv__put", Reason: "b is off"}}
	failed := &conductor.Outcome{Kind: actTool, Result: &hub.CallResult{IsError: true, Raw: toolResult("no such key").Result.Raw}}
	cases := []struct {
		name  string
		st    *conductor.State
		feeds []feed
	}{
		{"two domain calls run in order and both results reach the next request",
			pureState(conductor.ModeTools, true, kv), []feed{
				{1, nil, want{kind: actModel, endpoint: "orch", purpose: "decide", body: []string{`"name":"kv__get"`, "What is the capital of France?"}}},
				{1, modelReply(t, "", call{"kv__get", `{"key":"a"}`}, call{"kv__put", `{"key":"b"}`}),
					want{kind: actTool, tool: "kv__get", args: `{"key":"a"}`, purpose: "tool call"}},
				{1, toolResult("value of a"), want{kind: actTool, tool: "kv__put", args: `{"key":"b"}`}},
				{1, toolResult("stored b"), want{kind: actEnd}},
				{2, nil, want{kind: actModel, endpoint: "orch", body: []string{
					`"content":"value of a","tool_call_id":"id-a"`, `"content":"stored b","tool_call_id":"id-b"`}}},
				{2, modelReply(t, "a is 1"), want{kind: actAnswer, answer: "a is 1"}},
			}},
		{"refused and failed calls are results the orchestrator reads",
			pureState(conductor.ModeTools, true, kv), []feed{
				{1, nil, decide},
				{1, modelReply(t, "", call{"kv__get", `{"key":"a"}`}, call{"kv__put", `{}`}, call{"web_browse", `{}`}),
					want{kind: actTool, tool: "kv__get", notes: `invalid tool call: unknown tool "web_browse"`}},
				{1, failed, want{kind: actTool, tool: "kv__put"}},
				{1, refused, want{kind: actEnd}},
				{2, nil, want{kind: actModel, body: []string{`"content":"error: no such key"`, `"content":"error: not allowed: tool kv__put: b is off"`}}},
			}},
		{"call_expert runs alone and the expert's calls run",
			pureState(conductor.ModeTools, true, kv, policies.RoleExpert), []feed{
				{1, nil, want{kind: actModel, endpoint: "orch", body: []string{"call_expert", "expert-1"}}},
				{1, modelReply(t, "", call{"call_expert", `{"expert":"expert-1"}`}, call{"kv__get", `{"key":"a"}`}),
					want{kind: actModel, endpoint: "big", alias: "expert-1", purpose: "expert", notes: "ignored tool call kv__get: call_expert runs alone"}},
				{1, modelReply(t, "", call{"kv__get", `{"key":"z"}`}), want{kind: actTool, tool: "kv__get", args: `{"key":"z"}`}},
				{1, toolResult("zed"), want{kind: actEnd}},
			}},
		{"a withheld expert keeps its alias: expert-1 is refused saying why, and expert-2 is offered",
			withheldState(conductor.ModeTools, kv, policies.RoleExpert), []feed{
				{1, nil, want{kind: actModel, endpoint: "orch", body: []string{"call_expert", "expert-2"}}},
				{1, modelReply(t, "", call{"call_expert", `{"expert":"expert-1"}`}), want{kind: actEnd,
					notes: `invalid tool call: expert "expert-1" is not offered: remote, and privacy is local-only`}},
			}},
		{"a reply without calls is the answer",
			pureState(conductor.ModeTools, true, kv), []feed{
				{1, nil, decide},
				{1, modelReply(t, "nothing to do"), want{kind: actAnswer, answer: "nothing to do"}},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { drive(t, &policies.Orchestrator{}, tc.st, tc.feeds) })
	}
}

func TestRetrieveAnswerChoices(t *testing.T) {
	two := pureState(conductor.ModeResearch, false, []string{policies.ToolSearchDocuments, policies.ToolWebSearch}, policies.RoleAnswer)
	two.Models = append(two.Models, llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{Name: "cheap", ModelID: "small", Roles: []string{policies.RoleAnswer}}})
	two.Models[0].PriceIn = 5
	cases := []struct {
		name   string
		policy *policies.RetrieveAnswer
		st     *conductor.State
		feeds  []feed
	}{
		{"both search tools, then the strongest model with the hits that came back",
			&policies.RetrieveAnswer{}, two, []feed{
				{1, nil, want{kind: actTool, tool: "search_documents", purpose: "search"}},
				{1, &conductor.Outcome{Kind: actTool, Err: &conductor.LimitError{Reason: "budget"}}, want{kind: actTool, tool: "web_search"}},
				{1, toolResult("from the web"), want{kind: actModel, endpoint: "big", purpose: "answer", body: []string{"Doc 1: from the web"}}},
				{1, modelReply(t, `\boxed{Paris}`), want{kind: actAnswer, answer: "Paris"}},
			}},
		{"cheapest picks the other model", &policies.RetrieveAnswer{Pick: policies.Cheapest}, two, []feed{
			{1, nil, want{kind: actTool}}, {1, toolResult("x"), want{kind: actTool}},
			{1, toolResult("y"), want{kind: actModel, endpoint: "cheap"}},
		}},
		{"a fixed model that is not offered is the hub's own failure",
			&policies.RetrieveAnswer{Model: "gone", Pick: policies.Fixed("gone")}, two, []feed{{1, nil, want{kind: actFail}}}},
		{"a fixed model without the answer role is the hub's own failure",
			&policies.RetrieveAnswer{Model: "big", Pick: policies.Fixed("big")},
			pureState(conductor.ModeTools, false, nil, policies.RoleExpert), []feed{{1, nil, want{kind: actFail}}}},
		{"no model of the answer role: the passages found, and why", &policies.RetrieveAnswer{},
			pureState(conductor.ModeTools, false, []string{policies.ToolSearchDocuments}, policies.RoleSearch, policies.RoleExpert), []feed{
				{1, nil, want{kind: actTool}},
				{1, toolResult("Paris."), want{kind: actAnswer, notes: `no allowed model has the "answer" role; give one "roles": ["answer"] for answers`,
					answer: "No model is available to answer; these are the passages the local search found:\n\n[1] Paris.\n"}},
			}},
		{"no model: the passages found", &policies.RetrieveAnswer{},
			pureState(conductor.ModeTools, false, []string{policies.ToolSearchDocuments}), []feed{
				{1, nil, want{kind: actTool}},
				{1, toolResult("Paris."), want{kind: actAnswer,
					answer: "No model is available to answer; these are the passages the local search found:\n\n[1] Paris.\n"}},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { drive(t, tc.policy, tc.st, tc.feeds) })
	}
}
