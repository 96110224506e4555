package policies_test

import (
	"context"
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// timedPythonServer is a python tool whose schema takes timeout_seconds up
// to maximum, as the built-in one does; it records the arguments it gets.
func timedPythonServer(rec *recorder, maximum int) hub.ServerSpec {
	schema, _ := json.Marshal(map[string]any{"type": "object", "required": []string{"code"}, "properties": map[string]any{
		"code":            map[string]any{"type": "string"},
		"timeout_seconds": map[string]any{"type": "number", "minimum": 1, "maximum": maximum},
	}})
	return pythonServer(schema, func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		rec.add(req.GetArguments())
		res := mcpgo.NewToolResultText("exit status 0")
		res.StructuredContent = map[string]any{"exitCode": 0, "stdout": "1024\n"}
		return res, nil
	})
}

// The reasoner's code runs under the reference's 60 s timeout (protocol
// §3.7), not the python tool's shorter default; a tool that allows less
// gets its own maximum.
func TestResearchCodeRunsUnderTheReferenceTimeout(t *testing.T) {
	cases := []struct {
		name    string
		maximum int
		want    float64
	}{
		{"tool allows 60 s", 60, 60},
		{"tool allows 120 s", 120, 60},
		{"tool allows 20 s", 20, 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var runs recorder
			h := startHub(t, timedPythonServer(&runs, tc.maximum))
			orch := scripted(t,
				scriptedmodel.ToolCallReply("", "enhance_reasoning", `{"model": "reasoner-1"}`),
				scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`))
			expert := scripted(t,
				scriptedmodel.RawTextReply("```python\nprint(2**10)\n```"),
				scriptedmodel.RawTextReply(`\boxed{1024}`))
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"),
				expertEndpoint(expert.URL()+"/v1", policies.RoleReason, policies.RoleAnswer))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "What is 2 to the 10th?"}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Answer != "1024" {
				t.Fatalf("answer %q, trace:\n%s", run.Answer, observations(run))
			}
			got := runs.calls()
			if len(got) != 1 || got[0]["timeout_seconds"] != tc.want {
				t.Fatalf("python calls %v, want one with timeout_seconds %v", got, tc.want)
			}
		})
	}
}
