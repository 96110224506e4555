package daemon_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/testenv"
	"github.com/toolhub/toolhub/mcp"
)

// tasksV2Outcome is what mcp/testdata/interop/tasks-v2.mjs prints: the
// official TypeScript client (2026-07-28) driving a task through the
// Tasks extension's own client library.
type tasksV2Outcome struct {
	Created  *string               `json:"created"`
	Statuses []string              `json:"statuses"`
	Messages []string              `json:"messages"`
	Inputs   []string              `json:"inputs"`
	Updates  int                   `json:"updates"`
	Result   *mcpgo.CallToolResult `json:"result"`
	Error    *string               `json:"error"`
}

// runTasksV2 runs the script against target ("http URL" or "stdio
// COMMAND ARGS...") with env added.
func runTasksV2(t *testing.T, env []string, target ...string) tasksV2Outcome {
	t.Helper()
	argv := append(testenv.NodeScript(t, filepath.Join("mcp", "testdata", "interop"), "tasks-v2.mjs"), target...)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tasks-v2.mjs: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
	}
	var o tasksV2Outcome
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("tasks-v2.mjs printed %q: %v\nstderr: %s", out, err, stderr.String())
	}
	t.Logf("statuses %v, messages %q, inputs %v, %d updates", o.Statuses, o.Messages, o.Inputs, o.Updates)
	return o
}

// waitForTool lists the hub's tools until name is among them:
// server-everything adds its elicitation tool once it has seen the
// client's capabilities.
func waitForTool(t *testing.T, e *conductorEnv, name string) {
	t.Helper()
	c, _ := e.client(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for ctx.Err() == nil {
		res, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range res.Tools {
			if tool.Name == name {
				return
			}
		}
	}
	t.Fatalf("%s never appeared in the hub's tools", name)
}

// An orchestrate task from the official TypeScript client of 2026-07-28,
// over HTTP and over stdio: the episode calls server-everything's
// elicitation tool, the server's elicitation/create becomes the task's
// input request, the client's tasks/update answers it, and the task
// completes with the episode's trace.
func TestOrchestrateAsAModernTaskThroughServe(t *testing.T) {
	const tool = "everything__trigger-elicitation-request"
	transports := []struct {
		name   string
		target func(e *conductorEnv) []string
	}{
		{"streamable http", func(e *conductorEnv) []string { return []string{"http", e.url} }},
		{"stdio", func(e *conductorEnv) []string {
			return []string{"stdio", testenv.ToolhubBinary(t), "--config", e.config, "serve"}
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			orch := scriptedmodel.New(
				scriptedmodel.ToolCallReply("", tool, `{}`),
				scriptedmodel.RawTextReply("Asked the user for their name."))
			defer orch.Close()
			expert := scriptedmodel.New()
			defer expert.Close()
			e := newConductorEnv(t, orch, expert)
			waitForTool(t, e, tool)

			o := runTasksV2(t, append(e.env, `TASKS_ARGS={"task":"Ask me who I am."}`), tr.target(e)...)
			if o.Error != nil || o.Created == nil || o.Result == nil {
				t.Fatalf("outcome %+v (error %v)", o, deref(o.Error))
			}
			if !slices.Contains(o.Statuses, "input_required") || o.Statuses[len(o.Statuses)-1] != "completed" ||
				!slices.Equal(o.Inputs, []string{"elicitation"}) || o.Updates != 1 {
				t.Fatalf("statuses %v, inputs %v, %d updates: want an elicitation answered once, then completed",
					o.Statuses, o.Inputs, o.Updates)
			}
			var trace mcp.Trace
			raw, _ := json.Marshal(o.Result.StructuredContent)
			if err := json.Unmarshal(raw, &trace); err != nil || trace.Status != string(conductor.RunAnswered) ||
				trace.Answer != "Asked the user for their name." {
				t.Fatalf("trace %+v (%v)", trace, err)
			}
			if reqs := orch.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1]), "interop-elicited-name") {
				t.Fatalf("the model's second request does not carry the client's answer (%d requests)", len(reqs))
			}
		})
	}
}

// A task the TypeScript client cancels ends its episode: the run is
// stored as cancelled after its first tool call, not ten minutes later.
func TestOrchestrateTaskCancelledThroughServe(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "everything__echo", `{"message": "first"}`),
		scriptedmodel.RawTextReply("too late").WithDelay(10*time.Minute))
	defer orch.Close()
	expert := scriptedmodel.New()
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)

	o := runTasksV2(t, append(e.env, "TASKS_CANCEL=1", `TASKS_ARGS={"task":"Echo, then think for ten minutes."}`),
		"http", e.url)
	if len(o.Statuses) == 0 || o.Statuses[len(o.Statuses)-1] != "cancelled" || o.Result != nil {
		t.Fatalf("statuses %v, result %+v: want the task cancelled", o.Statuses, o.Result)
	}
	run := waitStoredRun(t, e)
	if run.Status != conductor.RunCancelled {
		t.Fatalf("stored run %s, want cancelled", run.Status)
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
