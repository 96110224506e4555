package cli

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// `toolhub call` reaches toolhub's own orchestrate and research tools as an
// MCP client's tools/call does: the episode runs and its answer, or the
// reason there is none, is the result.
func TestCallOwnTools(t *testing.T) {
	cases := []struct {
		name       string
		orch       scriptedmodel.Reply
		args       []string
		wantCode   int
		wantStdout string
	}{
		{"research answers", scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`),
			[]string{"call", "research", "--arg", "question=2+2?"}, 0, "4"},
		{"research as JSON carries the trace", scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`),
			[]string{"call", "research", "--args", `{"question": "2+2?"}`, "--json"}, 0, `"status":"answered"`},
		{"orchestrate's final message", scriptedmodel.RawTextReply("<think>easy</think><message>Four.</message>"),
			[]string{"call", "orchestrate", "--arg", "task=2+2?"}, 0, "Four."},
		{"no answer is an error result", scriptedmodel.RawTextReply("no tool call"),
			[]string{"call", "research", "--args", `{"question": "2+2?", "preference": {"max_turns": 1}}`}, 1, "No answer"},
		{"a missing argument is an error result", scriptedmodel.RawTextReply("unused"),
			[]string{"call", "research", "--args", `{}`}, 1, "question"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := scriptedModelsConfig(t, tc.orch)
			code, stdout, stderr := run(t, append([]string{"--config", cfg}, tc.args...)...)
			if code != tc.wantCode || !strings.Contains(stdout, tc.wantStdout) {
				t.Fatalf("exit %d, want %d; stdout lacks %q?\nstdout: %s\nstderr: %s", code, tc.wantCode, tc.wantStdout, stdout, stderr)
			}
			if strings.Contains(stderr, "unknown tool") {
				t.Errorf("stderr %q", stderr)
			}
		})
	}
}
