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
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
)

// fakeConductor replays a fixed run: it publishes the run's steps on the
// bus under the request's run id (and one step of another run, which the
// call must not report), and records the request it was given.
type fakeConductor struct {
	run *conductor.Run
	err error
	bus *events.Bus

	mu  sync.Mutex
	got []conductor.Request
}

func (f *fakeConductor) Run(_ context.Context, req conductor.Request) (*conductor.Run, error) {
	f.mu.Lock()
	f.got = append(f.got, req)
	f.mu.Unlock()
	if f.run == nil {
		return nil, f.err
	}
	f.bus.Publish(events.RunStep, "another-run", conductor.Step{Kind: conductor.StepTool, Tool: "other__tool"})
	for _, s := range f.run.Steps {
		f.bus.Publish(events.RunStep, req.RunID, s)
	}
	run := *f.run
	run.ID = req.RunID
	return &run, f.err
}

func newFakeConductor(run *conductor.Run, err error) *fakeConductor {
	return &fakeConductor{run: run, err: err, bus: events.New(events.Options{})}
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

// callConductor calls tool on a server whose conductor is c, in process,
// and collects the progress messages that arrived before the result.
func callConductor(t *testing.T, c *fakeConductor, tool string, args map[string]any, token any, want int) (*mcpgo.CallToolResult, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := NewServer(newFakeCatalog(), Options{Conductor: c, Events: c.bus})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, err := mcpclient.NewInProcessClient(srv.MCPServer())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	progress := make(chan string, 64)
	client.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			progress <- n.Params.AdditionalFields["message"].(string)
		}
	})
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
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
	// Everything was sent before the result; the in-process client hands
	// notifications over on its own goroutine, so wait for the ones wanted.
	var got []string
	for len(got) < want {
		select {
		case m := <-progress:
			got = append(got, m)
		case <-ctx.Done():
			t.Fatalf("%d progress notifications arrived, want %d", len(got), want)
		}
	}
	if err := client.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-progress:
		t.Fatalf("an extra progress notification arrived: %q", m)
	default:
	}
	return res, got
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
	runner := newFakeConductor(answeredRun(), nil)
	res, progress := callConductor(t, runner, "orchestrate",
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
	if tr.Answer != "42" || len(tr.Steps) != 4 || tr.Totals.USD != 0.0102 || tr.Steps[1].Millis != 12 ||
		tr.Steps[2].Kind != "observation" || tr.Steps[2].Text != "42" || tr.Steps[1].Text != "" {
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
	if text := conductorText(res); !strings.HasPrefix(text, "42\n\n[answered · 2 turns · 1 model call · 1 tool call · $0.010200 · 1.0 s · run "+got.RunID+"]") {
		t.Errorf("text %q", text)
	}
}

func TestConductorWithoutProgressToken(t *testing.T) {
	res, progress := callConductor(t, newFakeConductor(answeredRun(), nil),
		"research", map[string]any{"question": "q"}, nil, 0)
	if res.IsError || len(progress) != 0 {
		t.Fatalf("error %v, %d progress notifications without a token", res.IsError, len(progress))
	}
}

func TestConductorErrors(t *testing.T) {
	noAnswer := &conductor.Run{ID: "r2", Status: conductor.RunNoAnswer, Error: "no answer within 50 turns", Steps: []conductor.Step{}}
	cases := []struct {
		name   string
		runner *fakeConductor
		tool   string
		args   map[string]any
		want   string
	}{
		{"empty task", newFakeConductor(nil, nil), "orchestrate", map[string]any{"task": "  "}, "task is empty"},
		{"missing question", newFakeConductor(nil, nil), "research", map[string]any{}, "question is empty"},
		{"task too long", newFakeConductor(nil, nil), "orchestrate", map[string]any{"task": strings.Repeat("x", 65<<10)}, "the limit is 65536"},
		{"negative budget", newFakeConductor(nil, nil), "orchestrate", map[string]any{"task": "t", "budget_usd": -1}, "budget_usd must be"},
		{"budget as text", newFakeConductor(nil, nil), "orchestrate", map[string]any{"task": "t", "budget_usd": "1"}, "budget_usd must be"},
		{"runner failed", newFakeConductor(nil, context.DeadlineExceeded), "orchestrate", map[string]any{"task": "t"}, "could not run: context deadline exceeded"},
		{"no answer", newFakeConductor(noAnswer, nil), "orchestrate", map[string]any{"task": "t"}, "No answer: no answer within 50 turns"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, _ := callConductor(t, tc.runner, tc.tool, tc.args, nil, 0)
			if !res.IsError || !strings.Contains(conductorText(res), tc.want) {
				t.Errorf("error %v, text %q, want %q", res.IsError, conductorText(res), tc.want)
			}
		})
	}
}
