package policies_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// These functions drive a Chooser directly: no engine, no hub, no server.
// A test feeds outcomes it writes by hand and checks the actions.

// pureState is an episode's view with the given tools and one expert
// endpoint "big" holding roles; orchestrator "orch" unless none.
func pureState(mode conductor.Mode, orchestrator bool, tools []string, roles ...string) *conductor.State {
	st := &conductor.State{Task: "What is the capital of France?", Mode: mode, Turn: 1, MaxTurns: conductor.MaxTurns}
	for _, name := range tools {
		st.Tools = append(st.Tools, &hub.Tool{Name: name, RawTool: hub.RawTool{Name: name,
			Description: "the " + name + " tool", InputSchema: json.RawMessage(`{"type":"object"}`)}})
	}
	if len(roles) > 0 {
		st.Models = []llm.ModelInfo{{ModelEndpoint: llm.ModelEndpoint{Name: "big", ModelID: "gpt-5", Roles: roles, ContextLength: 32768,
			AnswerStyle: policies.StyleBoxed}}}
	}
	if orchestrator {
		st.Orchestrator = &llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{Name: "orch", ModelID: "orchestrator-8b"}}
	}
	return st
}

// withheldState is pureState with a second expert endpoint: "cloud",
// configured first with the same roles and withheld by the preferences,
// so that the offered "big" is the second alias of each role.
func withheldState(mode conductor.Mode, tools []string, roles ...string) *conductor.State {
	st := pureState(mode, true, tools, roles...)
	cloud := llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{Name: "cloud", ModelID: "gpt-5", Roles: roles, Locality: hub.LocalityRemote}}
	st.Roster = append([]llm.ModelInfo{cloud}, st.Models...)
	st.Withheld = map[string]string{"cloud": "remote, and privacy is local-only"}
	return st
}

// call is a tool call in a chat reply: name and JSON arguments.
type call struct{ name, args string }

// modelReply is the outcome of a model request answered with content and
// calls, as an OpenAI-compatible server sends it.
func modelReply(t *testing.T, content string, calls ...call) *conductor.Outcome {
	t.Helper()
	msg := policies.Message{Role: policies.RoleAssistant, Content: content}
	for i, c := range calls {
		msg.ToolCalls = append(msg.ToolCalls, policies.ToolCall{ID: "id-" + string(rune('a'+i)), Type: "function",
			Function: policies.FunctionCall{Name: c.name, Arguments: policies.Arguments(c.args)}})
	}
	body, err := json.Marshal(policies.ChatResponse{Choices: []policies.Choice{{Message: msg, FinishReason: "stop"}}})
	if err != nil {
		t.Fatal(err)
	}
	return &conductor.Outcome{Kind: conductor.ActModel, Reply: &llm.ModelReply{Body: body, Content: content}}
}

// toolResult is the outcome of a tool call that returned text parts.
func toolResult(texts ...string) *conductor.Outcome {
	type part struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	var r struct {
		Content []part `json:"content"`
	}
	for _, text := range texts {
		r.Content = append(r.Content, part{"text", text})
	}
	raw, _ := json.Marshal(r)
	return &conductor.Outcome{Kind: conductor.ActTool, Result: &hub.CallResult{Raw: raw}}
}

// want describes an expected action; empty fields are not checked, and
// body and notes are substrings of the request body and the joined notes.
type want struct {
	kind     conductor.ActionKind
	tool     string
	args     string
	endpoint string
	alias    string
	purpose  string
	body     []string
	notes    string
	answer   string
	forced   bool
}

func checkAction(t *testing.T, i int, got conductor.Action, w want) {
	t.Helper()
	purpose := got.Purpose
	if got.Kind == conductor.ActModel {
		purpose = got.Model.Purpose
	}
	notes := strings.Join(got.Notes, "\n")
	switch {
	case got.Kind != w.kind:
		t.Fatalf("action %d: kind %d, want %d (%+v)", i, got.Kind, w.kind, got)
	case w.tool != "" && got.Tool != w.tool, w.args != "" && string(got.Args) != w.args:
		t.Fatalf("action %d: tool %s %s, want %s %s", i, got.Tool, got.Args, w.tool, w.args)
	case w.endpoint != "" && got.Model.Endpoint != w.endpoint, w.alias != "" && got.Model.Alias != w.alias:
		t.Fatalf("action %d: model %s as %s, want %s as %s", i, got.Model.Endpoint, got.Model.Alias, w.endpoint, w.alias)
	case w.purpose != "" && purpose != w.purpose:
		t.Fatalf("action %d: purpose %q, want %q", i, purpose, w.purpose)
	case w.notes != "" && !strings.Contains(notes, w.notes), w.notes == "" && notes != "":
		t.Fatalf("action %d: notes %q, want %q", i, notes, w.notes)
	case got.Answer != w.answer || got.Forced != w.forced:
		t.Fatalf("action %d: answer %q forced %v, want %q forced %v", i, got.Answer, got.Forced, w.answer, w.forced)
	}
	for _, b := range w.body {
		if !strings.Contains(string(got.Model.Body), b) {
			t.Fatalf("action %d: request body lacks %q:\n%s", i, b, got.Model.Body)
		}
	}
}

// feed is one decision: at turn, with last as the previous outcome.
type feed struct {
	turn int
	last *conductor.Outcome
	want want
}

// drive runs c from Start through feeds, checking each action.
func drive[M any](t *testing.T, c conductor.Chooser[M], st *conductor.State, feeds []feed) {
	t.Helper()
	mem := c.Start(st)
	for i, f := range feeds {
		st.Turn = f.turn
		var a conductor.Action
		a, mem = c.Decide(st, mem, f.last)
		checkAction(t, i, a, f.want)
	}
}
