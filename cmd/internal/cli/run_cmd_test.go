package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// modelsConfig writes a config with a scripted orchestrator and one
// scripted answer expert.
// scriptedModelsConfig is modelsConfig over a scripted orchestrator that
// answers every request with orch and an expert that answers \boxed{4}.
func scriptedModelsConfig(t *testing.T, orch scriptedmodel.Reply) string {
	t.Helper()
	o := scriptedmodel.New(orch)
	o.SetLoop(true)
	t.Cleanup(o.Close)
	expert := scriptedmodel.New(scriptedmodel.RawTextReply(`\boxed{4}`))
	expert.SetLoop(true)
	t.Cleanup(expert.Close)
	return modelsConfig(t, o, expert)
}

func modelsConfig(t *testing.T, orch, expert *scriptedmodel.Server) string {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	path := filepath.Join(t.TempDir(), "toolhub.json")
	writeFile(t, path, fmt.Sprintf(`{"mcpServers": {},
  "models": {"big": {"baseUrl": %q, "model": "gpt-5", "roles": ["answer"]}},
  "orchestrator": {"baseUrl": %q, "temperature": 0}}`, expert.URL()+"/v1", orch.URL()+"/v1"))
	return path
}

func TestRunCommandPrintsStepsAndAnswer(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`).WithUsage(1000, 10))
	defer orch.Close()
	expert := scriptedmodel.New(scriptedmodel.RawTextReply(`\boxed{4}`).WithUsage(100, 5))
	defer expert.Close()
	code, stdout, stderr := runSub(t, newRunCommand, modelsConfig(t, orch, expert), "2+2?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"turn 1   model  orchestrator → nvidia/Nemotron-Orchestrator-8B (local) decide  1000→10 tok  $0.000202",
		"model  answer-1 → gpt-5 (local) answer  100→5 tok  $0.000175",
		"answered  1 turn  2 model calls  0 tool calls",
		"\n4\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
}

func TestRunCommandJSON(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.RawTextReply("no tool call"))
	orch.SetLoop(true)
	defer orch.Close()
	expert := scriptedmodel.New()
	defer expert.Close()
	// A task of several unquoted words is one task.
	code, stdout, stderr := runSub(t, newRunCommand, modelsConfig(t, orch, expert), "--json", "--max-turns", "2", "what", "is", "q")
	if code != exitNoAnswer {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var run conductor.Run
	if err := json.Unmarshal([]byte(stdout), &run); err != nil {
		t.Fatalf("not a run: %v\n%s", err, stdout)
	}
	if run.Status != conductor.RunNoAnswer || run.Totals.Turns != 2 || run.Policy != "orchestrator" || run.Task != "what is q" {
		t.Fatalf("run %+v", run)
	}
}

// An episode that ended without an answer exits with its own status,
// its reason printed once, on stdout with the run.
func TestRunCommandExitStatus(t *testing.T) {
	cases := []struct {
		name     string
		orch     scriptedmodel.Reply
		args     []string
		wantCode int
		wantOut  string
	}{
		{"answered", scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`), nil, exitOK, "answered  1 turn  2 model calls  0 tool calls"},
		{"no answer", scriptedmodel.RawTextReply("no tool call"), []string{"--max-turns", "1"}, exitNoAnswer, "no_answer  1 turn  1 model call  0 tool calls"},
		{"budget", scriptedmodel.RawTextReply("no tool call"), []string{"--budget", "0.0000001"}, exitBudgetExhausted, "budget_exhausted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runSub(t, newRunCommand, scriptedModelsConfig(t, tc.orch), append(tc.args, "2+2?")...)
			if code != tc.wantCode || !strings.Contains(stdout, tc.wantOut) {
				t.Fatalf("exit %d, want %d; stdout lacks %q?\n%s", code, tc.wantCode, tc.wantOut, stdout)
			}
			if stderr != "" {
				t.Errorf("stderr %q: the reason is on stdout already", stderr)
			}
		})
	}
}

func TestRunStatusExitCodes(t *testing.T) {
	cases := []struct {
		status conductor.RunStatus
		want   int
	}{
		{conductor.RunAnswered, exitOK},
		{conductor.RunNoAnswer, exitNoAnswer},
		{conductor.RunBudgetExhausted, exitBudgetExhausted},
		{conductor.RunDeadline, exitDeadline},
		{conductor.RunCancelled, exitCancelled},
		{conductor.RunFailed, exitToolError},
	}
	for _, tc := range cases {
		t.Run(string(tc.status), func(t *testing.T) {
			if got := exitCode(runStatusError(&conductor.Run{ID: "r", Status: tc.status})); got != tc.want {
				t.Errorf("exit %d, want %d", got, tc.want)
			}
		})
	}
}

func TestRunCommandUsage(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad mode", []string{"--mode", "chat", "q"}, `--mode "chat"`},
		{"too many turns", []string{"--max-turns", "51", "q"}, "--max-turns 51"},
		{"bad policy", []string{"--policy", "smartest", "q"}, `unknown policy "smartest"`},
		{"bad preference", []string{"--preference", "loud", "q"}, "--preference: "},
		{"bad preference object", []string{"--preference", `{"privacy": "nowhere"}`, "q"}, "--preference: "},
		{"negative budget", []string{"--budget", "-1", "q"}, "--budget -1"},
		{"no task", nil, "run needs a task"},
		{"an empty task", []string{""}, "run needs a task"},
		{"a blank task", []string{" ", "\t"}, "run needs a task"},
	}
	orch := scriptedmodel.New()
	defer orch.Close()
	cfg := modelsConfig(t, orch, orch)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runSub(t, newRunCommand, cfg, tc.args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d stderr %q, want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}
