package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// fakeRunner replays a fixed run, reporting its steps, and records the
// request it was given.
type fakeRunner struct {
	run *conductor.Run
	err error

	mu  sync.Mutex
	got []EpisodeRequest
}

func (f *fakeRunner) RunEpisode(_ context.Context, req EpisodeRequest, onStep func(conductor.Step)) (*conductor.Run, error) {
	f.mu.Lock()
	f.got = append(f.got, req)
	f.mu.Unlock()
	if f.run != nil {
		for _, s := range f.run.Steps {
			onStep(s)
		}
	}
	return f.run, f.err
}

func answeredRun() *conductor.Run {
	return &conductor.Run{ID: "r1", Status: conductor.RunAnswered, Answer: "42", Mode: conductor.ModeTools, Policy: "orchestrator",
		Steps: []conductor.Step{
			{Index: 0, Turn: 1, Kind: conductor.StepModel, Alias: "orchestrator", Model: "orch-8b", Locality: hub.LocalityLocal,
				TokensIn: 1000, TokensOut: 10, USD: 0.0002, Wall: 800 * time.Millisecond},
			{Index: 1, Turn: 1, Kind: conductor.StepTool, Tool: "calc__add", Locality: hub.LocalityRemote, USD: 0.01, Wall: 12 * time.Millisecond},
			{Index: 2, Turn: 1, Kind: conductor.StepObservation, Text: "42"},
			{Index: 3, Turn: 2, Kind: conductor.StepAnswer, Text: "42"},
		},
		Totals: conductor.Totals{Turns: 2, ModelCalls: 1, ToolCalls: 1, TokensIn: 1000, TokensOut: 10, USD: 0.0102, Wall: time.Second}}
}

// callConductor calls tool on c's server in process, collecting progress.
func callConductor(t *testing.T, c *Conductor, tool string, args map[string]any, token any, wantProgress int) (*mcpgo.CallToolResult, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, err := mcpclient.NewInProcessClient(c.Server())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	var mu sync.Mutex
	var progress []string
	client.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			mu.Lock()
			progress = append(progress, n.Params.AdditionalFields["message"].(string))
			mu.Unlock()
		}
	})
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "test", Version: "1"}
	if _, err := client.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	if token != nil {
		req.Params.Meta = &mcpgo.Meta{ProgressToken: token}
	}
	res, err := client.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	// The in-process client hands notifications over on its own goroutine.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(progress)
		mu.Unlock()
		if n >= wantProgress {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return res, append([]string(nil), progress...)
}

func conductorText(res *mcpgo.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestConductorReturnsTraceAndProgress(t *testing.T) {
	runner := &fakeRunner{run: answeredRun()}
	res, progress := callConductor(t, NewConductor(runner, ConductorOptions{}), "orchestrate",
		map[string]any{"task": "  add 40 and 2 ", "budget_usd": 0.5, "preference": "local-only"}, "tok", 3)
	if res.IsError {
		t.Fatalf("error result: %s", conductorText(res))
	}
	got := runner.got[0]
	if got.Task != "add 40 and 2" || got.Mode != conductor.ModeTools || got.BudgetUSD != 0.5 || string(got.Preference) != `"local-only"` {
		t.Errorf("request %+v", got)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var tr Trace
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Answer != "42" || len(tr.Steps) != 3 || tr.Totals.USD != 0.0102 || tr.Steps[1].Millis != 12 {
		t.Errorf("trace %+v", tr)
	}
	want := []string{
		"step 1 (turn 1): model orchestrator → orch-8b · local · 800 ms · $0.000200",
		"step 2 (turn 1): tool calc__add · remote · 12 ms · $0.010000",
		"step 3 (turn 2): answer",
	}
	if strings.Join(progress, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress\n%s\nwant\n%s", strings.Join(progress, "\n"), strings.Join(want, "\n"))
	}
	if text := conductorText(res); !strings.HasPrefix(text, "42\n\n[answered · 2 turns · 1 model calls · 1 tool calls · $0.010200 · 1.0 s · run r1]") {
		t.Errorf("text %q", text)
	}
}

func TestConductorWithoutProgressToken(t *testing.T) {
	res, progress := callConductor(t, NewConductor(&fakeRunner{run: answeredRun()}, ConductorOptions{}),
		"research", map[string]any{"question": "q"}, nil, 0)
	if res.IsError || len(progress) != 0 {
		t.Fatalf("error %v, %d progress notifications without a token", res.IsError, len(progress))
	}
}

func TestConductorErrors(t *testing.T) {
	noAnswer := &conductor.Run{ID: "r2", Status: conductor.RunNoAnswer, Error: "no answer within 50 turns", Steps: []conductor.Step{}}
	cases := []struct {
		name   string
		runner *fakeRunner
		tool   string
		args   map[string]any
		want   string
	}{
		{"empty task", &fakeRunner{}, "orchestrate", map[string]any{"task": "  "}, "task is empty"},
		{"missing question", &fakeRunner{}, "research", map[string]any{}, "question is empty"},
		{"task too long", &fakeRunner{}, "orchestrate", map[string]any{"task": strings.Repeat("x", 65<<10)}, "the limit is 65536"},
		{"negative budget", &fakeRunner{}, "orchestrate", map[string]any{"task": "t", "budget_usd": -1}, "budget_usd must be"},
		{"budget as text", &fakeRunner{}, "orchestrate", map[string]any{"task": "t", "budget_usd": "1"}, "budget_usd must be"},
		{"runner failed", &fakeRunner{err: context.DeadlineExceeded}, "orchestrate", map[string]any{"task": "t"}, "could not run: context deadline exceeded"},
		{"no answer", &fakeRunner{run: noAnswer}, "orchestrate", map[string]any{"task": "t"}, "No answer: no answer within 50 turns"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := callConductor(t, NewConductor(tc.runner, ConductorOptions{}), tc.tool, tc.args, nil, 0)
			if !res.IsError || !strings.Contains(conductorText(res), tc.want) {
				t.Errorf("error %v, text %q, want %q", res.IsError, conductorText(res), tc.want)
			}
		})
	}
}
