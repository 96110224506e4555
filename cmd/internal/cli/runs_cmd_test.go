package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/runlog"
)

func TestRunsListShowExport(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`).WithUsage(10, 1))
	defer orch.Close()
	expert := scriptedmodel.New(scriptedmodel.RawTextReply(`\boxed{4}`).WithUsage(10, 1))
	defer expert.Close()
	cfg := modelsConfig(t, orch, expert)
	code, stdout, stderr := runSub(t, newRunCommand, cfg, "--json", "2+2?")
	if code != 0 {
		t.Fatalf("run: exit %d %s", code, stderr)
	}
	var run conductor.Run
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr = runSub(t, newRunsCommand, cfg, "ls")
	if code != 0 || !strings.Contains(stdout, run.ID) || !strings.Contains(stdout, "answered") {
		t.Fatalf("ls: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = runSub(t, newRunsCommand, cfg, "show", run.ID)
	if code != 0 || !strings.Contains(stdout, "model  answer-1 → gpt-5") || !strings.Contains(stdout, "task: 2+2?") {
		t.Fatalf("show: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runSub(t, newRunsCommand, cfg, "show", run.ID, "--json")
	if code != 0 || !strings.Contains(stdout, `"request": {`) || !strings.Contains(stdout, `"messages": [`) {
		t.Fatalf("show --json: the orchestrator's request is not shown as the JSON it is: exit %d\n%s", code, stdout)
	}
	code, _, stderr = runSub(t, newRunsCommand, cfg, "show", "nope")
	if code != 2 || !strings.Contains(stderr, `no run "nope"`) {
		t.Fatalf("show unknown: exit %d %s", code, stderr)
	}
	code, stdout, _ = runSub(t, newRunsCommand, cfg, "export", "--jsonl")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var tr runlog.Trajectory
	if code != 0 || len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &tr) != nil {
		t.Fatalf("export: exit %d\n%s", code, stdout)
	}
	var reply struct {
		Role      string          `json:"role"`
		ToolCalls json.RawMessage `json:"tool_calls"`
	}
	last := tr.Messages[len(tr.Messages)-1]
	if tr.ID != run.ID || tr.Source != runlog.SourceBodies || json.Unmarshal(last, &reply) != nil ||
		reply.Role != "assistant" || len(reply.ToolCalls) == 0 || tr.Reward.ToolCounts["answer-1"] != 1 {
		t.Fatalf("trajectory %+v", tr)
	}
}
