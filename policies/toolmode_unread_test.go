package policies_test

import (
	"context"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	sm "github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// A tool-mode call that could not be read (bad JSON, a truncated block, no
// name) is never written into the history as a call with a made-up name or
// arguments: it stays out of tool_calls, the assistant message keeps the
// model's own text when no call is listed, and a user message after the
// results quotes what the model wrote and why it did not run. Calls read
// from the same reply still run and are answered as before.
func TestToolModeUnreadableCallsInHistory(t *testing.T) {
	cases := []struct {
		name        string
		stuck       sm.Reply
		wantCalls   []string // names in the assistant message's tool_calls
		wantContent string   // in the assistant message's content; "" for none
		wantError   string   // in the user message that follows
		wantKV      int      // kv calls that ran
	}{
		{"parsed call with bad JSON", sm.ToolCallReply("", "kv__get", `{"key": a}`), nil, "",
			`invalid JSON arguments: invalid character 'a' looking for beginning of value); you wrote: {"name": "kv__get", "arguments": {"key": a}}`, 0},
		{"truncated block", sm.TruncatedReply("<think>\nread a\n</think>\n\n<tool_call>\n{\"name\": \"kv__g"), nil,
			"<tool_call>\n{\"name\": \"kv__g", `you wrote: {"name": "kv__g`, 0},
		{"raw block without a name", sm.RawTextReply("<tool_call>\n{\"arguments\": {\"key\": \"a\"}}\n</tool_call>"), nil,
			`{"arguments": {"key": "a"}}`, `(missing tool name); you wrote: {"arguments": {"key": "a"}}`, 0},
		{"bad block beside a good one", sm.RawToolCallReply("",
			sm.Call{Name: "kv__get", Args: `{"key": "a"}`}, sm.Call{Name: "kv__get", Args: `{"key": }`}),
			[]string{"kv__get"}, "", `you wrote: {"name": "kv__get", "arguments": {"key": }}`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var kv recorder
			h := startHub(t, kvServer(&kv))
			orch := newDeterministicModel(t, tc.stuck, sm.RawTextReply("<think>ok</think><message>Done.</message>"))
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.ts.URL+"/v1"))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "Read a.", Mode: conductor.ModeTools}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunAnswered || run.Totals.Turns != 2 {
				t.Fatalf("status %s after %d turns\n%s", run.Status, run.Totals.Turns, observations(run))
			}
			msgs := orch.request(t, 1).Messages
			assistant, last := findAssistant(msgs), msgs[len(msgs)-1]
			var names []string
			for _, c := range assistant.ToolCalls {
				names = append(names, c.Function.Name)
				if c.Function.Name == "" || !strings.HasPrefix(string(c.Function.Arguments), "{") {
					t.Errorf("a call with a made-up name or arguments: %+v", c)
				}
			}
			if strings.Join(names, ",") != strings.Join(tc.wantCalls, ",") {
				t.Errorf("tool_calls %v, want %v", names, tc.wantCalls)
			}
			if (tc.wantContent == "") != (assistant.Content == "") || !strings.Contains(assistant.Content, tc.wantContent) {
				t.Errorf("assistant content %q, want it to hold %q", assistant.Content, tc.wantContent)
			}
			if last.Role != policies.RoleUser || !strings.Contains(last.Content, tc.wantError) {
				t.Errorf("last message %+v, want a user message holding %q", last, tc.wantError)
			}
			if len(kv.calls()) != tc.wantKV {
				t.Errorf("%d kv calls ran, want %d", len(kv.calls()), tc.wantKV)
			}
		})
	}
}

// findAssistant is the last assistant message of msgs.
func findAssistant(msgs []policies.Message) policies.Message {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == policies.RoleAssistant {
			return msgs[i]
		}
	}
	return policies.Message{}
}
