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

// tasksOutcome is what mcp/testdata/interop/tasks.mjs prints: the
// official TypeScript client (2026-07-28) driving a task through the
// Tasks extension's own client library.
type tasksOutcome struct {
	Created  *string               `json:"created"`
	Statuses []string              `json:"statuses"`
	Messages []string              `json:"messages"`
	Inputs   []string              `json:"inputs"`
	Updates  int                   `json:"updates"`
	Result   *mcpgo.CallToolResult `json:"result"`
	Error    *string               `json:"error"`
}

// runTasks runs the script against target ("http URL" or "stdio
// COMMAND ARGS...") with env added.
func runTasks(t *testing.T, env []string, target ...string) tasksOutcome {
	t.Helper()
	argv := append(testenv.NodeScript(t, filepath.Join("mcp", "testdata", "interop"), "tasks.mjs"), target...)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tasks.mjs: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
	}
	var o tasksOutcome
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("tasks.mjs printed %q: %v\nstderr: %s", out, err, stderr.String())
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

// An orchestrate task from the official TypeScript client through the
// Tasks client library, over HTTP and over stdio, in both eras: the
// episode calls server-everything's elicitation tool and the server's
// elicitation/create reaches the client; on 2026-07-28 it is the task's
// input request and the client answers it with tasks/update, on
// 2025-11-25 it is a request of the server's. server-everything asks for
// roots 350 ms after it starts; when that falls within the episode the
// client is asked for its roots too. The task completes with the
// episode's trace, and the orchestrator's next request carries the answer.
func TestOrchestrateAsATaskThroughServe(t *testing.T) {
	const tool = "everything__trigger-elicitation-request"
	eras := []struct {
		protocol string
		updates  int
	}{
		{"2026-07-28", 1}, // at least
		{"2025-11-25", 0},
	}
	transports := []struct {
		name   string
		target func(e *conductorEnv) []string
	}{
		{"streamable http", func(e *conductorEnv) []string { return []string{"http", e.url} }},
		{"stdio", func(e *conductorEnv) []string {
			return []string{"stdio", testenv.ToolhubBinary(t), "--config", e.config, "serve"}
		}},
	}
	for _, era := range eras {
		for _, tr := range transports {
			t.Run(era.protocol+" "+tr.name, func(t *testing.T) {
				orch := scriptedmodel.New(
					scriptedmodel.ToolCallReply("", tool, `{}`),
					scriptedmodel.RawTextReply("Asked the user for their name."))
				defer orch.Close()
				expert := scriptedmodel.New()
				defer expert.Close()
				e := newConductorEnv(t, orch, expert)
				waitForTool(t, e, tool)

				o := runTasks(t, append(e.env, "TASKS_PROTOCOL="+era.protocol, `TASKS_ARGS={"task":"Ask me who I am."}`),
					tr.target(e)...)
				if o.Error != nil || o.Created == nil || o.Result == nil {
					t.Fatalf("outcome %+v (error %v)", o, deref(o.Error))
				}
				if o.Statuses[len(o.Statuses)-1] != "completed" || !elicitedOnce(o.Inputs) ||
					(o.Updates == 0) != (era.updates == 0) || o.Updates > len(o.Inputs) {
					t.Fatalf("statuses %v, inputs %v, %d updates: want an elicitation answered, %d updates, then completed",
						o.Statuses, o.Inputs, o.Updates, era.updates)
				}
				if era.updates > 0 && !slices.Contains(o.Statuses, "input_required") {
					t.Errorf("statuses %v: the task never asked for input", o.Statuses)
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

	o := runTasks(t, append(e.env, "TASKS_CANCEL=1", `TASKS_ARGS={"task":"Echo, then think for ten minutes."}`),
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

// elicitedOnce reports whether the client was asked for input once and,
// besides, for nothing but its roots.
func elicitedOnce(inputs []string) bool {
	elicited := 0
	for _, kind := range inputs {
		switch kind {
		case "elicitation":
			elicited++
		case "roots":
		default:
			return false
		}
	}
	return elicited == 1
}
