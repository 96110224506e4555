package daemon_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/internal/testenv"
)

func TestResearchThroughServe(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`).WithUsage(1000, 10),
		scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`).WithUsage(1200, 10))
	defer orch.Close()
	expert := scriptedmodel.New(
		scriptedmodel.RawTextReply("<query>per diem business travel</query>").WithUsage(200, 10),
		scriptedmodel.RawTextReply(`\boxed{42 euros a day}`).WithUsage(300, 5))
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)
	c, progress := e.client(t)
	res, tr, err := call(t.Context(), t, c, "research", map[string]any{"question": "What is the per diem for travel?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || tr.Status != string(conductor.RunAnswered) || tr.Answer != "42 euros a day" {
		t.Fatalf("result %+v, trace %+v", res.Content, tr)
	}
	tools := stepsOf(tr, conductor.StepTool)
	if len(tools) != 1 || tools[0].Tool != "search_documents" || tools[0].Locality != "local" || tools[0].Error != "" {
		t.Errorf("tool steps %+v, want one local search_documents", tools)
	}
	if n := len(stepsOf(tr, conductor.StepModel)); n != 4 {
		t.Errorf("%d model steps, want 4 (two decisions, the query, the answer)", n)
	}
	// The answer model saw the passage the real index found.
	if reqs := expert.Requests(); len(reqs) != 2 || !strings.Contains(string(reqs[1]), "42 euros a day") {
		t.Errorf("the answer request lacks the indexed passage: %d requests", len(reqs))
	}
	// orchestrator $0.2/M both ways; gpt-5 $1.25/M in, $10/M out.
	want := 0.000202 + (200*1.25+10*10)/1e6 + 0.000242 + (300*1.25+5*10)/1e6
	if math.Abs(tr.Totals.USD-want) > 1e-12 {
		t.Errorf("total $%.9f, want $%.9f", tr.Totals.USD, want)
	}
	checkTotals(t, tr)
	checkProgress(t, progress.all(), len(tr.Steps)-len(stepsOf(tr, conductor.StepObservation)), "tool search_documents · local")
	var stored conductor.Run
	if err := json.Unmarshal([]byte(e.toolhub(t, "runs", "show", "--json", tr.RunID)), &stored); err != nil {
		t.Fatal(err)
	}
	if stored.Status != conductor.RunAnswered || stored.Answer != tr.Answer || stored.Mode != conductor.ModeResearch {
		t.Errorf("stored run %s %q %s", stored.Status, stored.Answer, stored.Mode)
	}
}

func TestOrchestrateThroughServe(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "everything__echo", `{"message": "hello hub"}`),
		scriptedmodel.ToolCallReply("", "memory__create_entities",
			`{"entities": [{"name": "toolhub", "entityType": "project", "observations": ["routes tasks"]}]}`),
		scriptedmodel.RawTextReply("Stored toolhub in memory."))
	defer orch.Close()
	expert := scriptedmodel.New()
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)
	c, progress := e.client(t)
	res, tr, err := call(t.Context(), t, c, "orchestrate", map[string]any{"task": "Remember toolhub as a project."})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || tr.Status != string(conductor.RunAnswered) || tr.Answer != "Stored toolhub in memory." || tr.Mode != "tools" {
		t.Fatalf("trace %+v", tr)
	}
	var names []string
	for _, s := range stepsOf(tr, conductor.StepTool) {
		if s.Error != "" {
			t.Errorf("step %s failed: %s", s.Tool, s.Error)
		}
		names = append(names, s.Tool)
	}
	if !slices.Equal(names, []string{"everything__echo", "memory__create_entities"}) {
		t.Errorf("tool steps %v", names)
	}
	offered := offeredTools(t, orch.Requests()[0])
	if !slices.Contains(offered, "everything__echo") || slices.Contains(offered, "orchestrate") || slices.Contains(offered, "research") {
		t.Errorf("offered tools %v: want the catalog without the conductor's own tools", offered)
	}
	graph := callText(t, c, "memory__read_graph", map[string]any{})
	if !strings.Contains(graph, "routes tasks") {
		t.Errorf("memory server lacks the entity: %s", graph)
	}
	checkTotals(t, tr)
	checkProgress(t, progress.all(), len(tr.Steps)-len(stepsOf(tr, conductor.StepObservation)), "tool everything__echo · local")
}

func TestEpisodeTurnCapThroughServe(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.ToolCallReply("", "everything__echo", `{"message": "again"}`))
	orch.SetLoop(true)
	defer orch.Close()
	expert := scriptedmodel.New()
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)
	c, progress := e.client(t)
	res, tr, err := call(t.Context(), t, c, "orchestrate", map[string]any{"task": "Echo forever."})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || tr.Status != string(conductor.RunNoAnswer) || tr.Totals.Turns != conductor.MaxTurns {
		t.Fatalf("status %s after %d turns (error %v), want no_answer after %d", tr.Status, tr.Totals.Turns, res.IsError, conductor.MaxTurns)
	}
	if tr.Totals.ToolCalls != conductor.MaxTurns || len(orch.Requests()) != conductor.MaxTurns {
		t.Errorf("%d tool calls and %d model requests, want %d each", tr.Totals.ToolCalls, len(orch.Requests()), conductor.MaxTurns)
	}
	checkProgress(t, progress.all(), 2*conductor.MaxTurns, "tool everything__echo")
}

func TestEpisodeCancelledThroughServe(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "everything__echo", `{"message": "first"}`),
		scriptedmodel.RawTextReply("too late").WithDelay(10*time.Minute))
	defer orch.Close()
	expert := scriptedmodel.New()
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)
	c, progress := e.client(t)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { // cancel once the tool step has been reported
		for len(progress.all()) < 2 {
			select {
			case <-progress.arrived:
			case <-ctx.Done():
				return
			}
		}
		cancel()
	}()
	if _, _, err := call(ctx, t, c, "orchestrate", map[string]any{"task": "Echo, then think for ten minutes."}); err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	run := waitStoredRun(t, e)
	if run.Status != conductor.RunCancelled || run.Totals.ToolCalls != 1 {
		t.Fatalf("stored run %s with %d tool calls, want cancelled after 1", run.Status, run.Totals.ToolCalls)
	}
}

// waitStoredRun polls the run log until the server has stored a run; the
// cancelled model call would otherwise hold it for ten minutes.
func waitStoredRun(t *testing.T, e *conductorEnv) conductor.Run {
	t.Helper()
	for range 240 {
		cmd := exec.Command(testenv.ToolhubBinary(t), "--config", e.config, "runs", "ls", "--json")
		cmd.Env = append(os.Environ(), e.env...)
		if out, err := cmd.Output(); err == nil {
			var runs []conductor.Run
			if json.Unmarshal(out, &runs) == nil && len(runs) > 0 {
				return runs[0]
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatal("no run was stored within a minute of the cancellation")
	return conductor.Run{}
}

func checkProgress(t *testing.T, messages []string, want int, contains string) {
	t.Helper()
	if len(messages) != want {
		t.Errorf("%d progress notifications, want %d: %q", len(messages), want, messages)
	}
	if !slices.ContainsFunc(messages, func(m string) bool { return strings.Contains(m, contains) }) {
		t.Errorf("no progress message mentions %q: %q", contains, messages)
	}
}

// offeredTools lists the function names of a chat request body.
func offeredTools(t *testing.T, body []byte) []string {
	t.Helper()
	var req struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
	}
	return names
}

func callText(t *testing.T, c interface {
	CallTool(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error)
}, name string, args map[string]any) string {
	t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, part := range res.Content {
		if tc, ok := part.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
