package conductor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// fakeTools is a hand-written ToolCaller over a real catalog whose calls
// answer with the tool's name.
type fakeTools struct {
	catalog *hub.Catalog
	called  []string
}

func newFakeTools(meta hub.ServerMeta, names ...string) *fakeTools {
	c := hub.NewCatalog(nil)
	var raws []hub.RawTool
	for _, n := range names {
		raws = append(raws, hub.RawTool{Name: n})
	}
	c.SetServer(meta, raws)
	return &fakeTools{catalog: c}
}

func (f *fakeTools) Snapshot() *hub.Snapshot { return f.catalog.Snapshot() }

func (f *fakeTools) Call(_ context.Context, name string, _ json.RawMessage, _ hub.CallOptions) (*hub.CallResult, error) {
	f.called = append(f.called, name)
	raw, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": "ran " + name}}})
	return &hub.CallResult{Raw: raw}, nil
}

// scriptPolicy is a hand-written policy: each turn runs one function.
type scriptPolicy struct {
	turns []func(ctx context.Context, st *State) (Decision, error)
}

func (p *scriptPolicy) Decide(ctx context.Context, st *State) (Decision, error) {
	return p.turns[st.Turn-1](ctx, st)
}

func denyRemote() Guard {
	return GuardFuncs{
		Tool: func(t *hub.Tool) (bool, string) { return t.Locality == hub.LocalityLocal, "remote tools are off" },
		Model: func(m llm.ModelInfo) (bool, string) {
			return m.Locality == hub.LocalityLocal, "remote models are off"
		},
	}
}

func TestGuardHidesAndRefuses(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "web", Locality: hub.LocalityRemote, CostPerCall: 0.01}, "fetch")
	f := &fakeChat{body: replyWithUsage}
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "cloud", BaseURL: startFakeChat(t, f), ModelID: "x", Locality: hub.LocalityRemote}}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools, Models: models, Guard: denyRemote()})
	if err != nil {
		t.Fatal(err)
	}
	var offeredTools, offeredModels int
	policy := &scriptPolicy{turns: []func(context.Context, *State) (Decision, error){
		func(ctx context.Context, st *State) (Decision, error) {
			offeredTools, offeredModels = len(st.Tools), len(st.Models)
			_, toolErr := st.CallTool(ctx, "web__fetch", nil, "")
			_, modelErr := st.CallModel(ctx, ModelCall{Endpoint: "cloud", Body: []byte(`{}`)})
			if toolErr == nil || modelErr == nil {
				t.Errorf("guard let calls through: %v %v", toolErr, modelErr)
			}
			return Decision{Final: true, Answer: "none"}, nil
		},
	}}
	run, err := eps.Run(context.Background(), Task{Text: "t"}, policy)
	if err != nil {
		t.Fatal(err)
	}
	if offeredTools != 0 || offeredModels != 0 {
		t.Fatalf("offered %d tools and %d models", offeredTools, offeredModels)
	}
	if len(tools.called) != 0 || len(f.bodies) != 0 {
		t.Fatalf("refused calls reached the tool (%v) or the model (%d)", tools.called, len(f.bodies))
	}
	for _, s := range run.Steps[:2] {
		if !strings.Contains(s.Error, "are off") {
			t.Fatalf("step without the guard's reason: %+v", s)
		}
	}
	if run.Totals.USD != 0 {
		t.Fatalf("refused calls were billed: %v", run.Totals.USD)
	}
}

func TestEpisodeAccountsToolsAndModels(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal, CostPerCall: 0.5}, "go")
	f := &fakeChat{body: replyWithUsage}
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "loc", BaseURL: startFakeChat(t, f), ModelID: "x", Locality: hub.LocalityLocal, PriceIn: 1, PriceOut: 2}}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bus := events.New(events.Options{})
	sub := bus.Subscribe(events.Filter{Buffer: 16})
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools, Models: models, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	policy := &scriptPolicy{turns: []func(context.Context, *State) (Decision, error){
		func(ctx context.Context, st *State) (Decision, error) {
			_, err := st.CallTool(ctx, "srv__go", json.RawMessage(`{}`), "")
			return Decision{}, err
		},
		func(ctx context.Context, st *State) (Decision, error) {
			_, err := st.CallModel(ctx, ModelCall{Endpoint: "loc", Alias: "answer-1", Body: []byte(`{}`)})
			return Decision{Final: true, Answer: "done"}, err
		},
	}}
	var heard []Step
	task := Task{Text: "t", PolicyName: "script", OnStep: func(s Step) { heard = append(heard, s) }}
	run, err := eps.Run(context.Background(), task, policy)
	if err != nil {
		t.Fatal(err)
	}
	if len(heard) != len(run.Steps) || heard[0].Tool != "srv__go" || heard[len(heard)-1].Kind != StepAnswer {
		t.Fatalf("OnStep heard %d steps, the run has %d", len(heard), len(run.Steps))
	}
	want := 0.5 + 12*1/1e6 + 3*2/1e6
	if run.Status != RunAnswered || run.Totals.USD != want || run.Totals.Turns != 2 {
		t.Fatalf("run %+v", run)
	}
	if s := run.Steps[0]; s.Turn != 1 || s.Tool != "srv__go" || s.Response != "ran srv__go" || s.Locality != hub.LocalityLocal {
		t.Fatalf("tool step %+v", s)
	}
	sub.Cancel()
	n := 0
	for range sub.C() {
		n++
	}
	if n != len(run.Steps)+2 || sub.Dropped() != 0 {
		t.Fatalf("%d events (%d dropped) for %d steps", n, sub.Dropped(), len(run.Steps))
	}
}

// roleGuard allows every model but takes the answer role from "cloud".
type roleGuard struct{ PermissiveGuard }

func (roleGuard) ModelRoles(m llm.ModelInfo) []string {
	if m.Name != "cloud" {
		return m.Roles
	}
	var out []string
	for _, r := range m.Roles {
		if r != "answer" {
			out = append(out, r)
		}
	}
	return out
}

func TestTaskGuardNarrowsAndRolesAreChecked(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal}, "a", "b")
	f := &fakeChat{body: replyWithUsage}
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "cloud", BaseURL: startFakeChat(t, f), ModelID: "x",
		Locality: hub.LocalityRemote, Roles: []string{"search", "answer"}}}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	noB := GuardFuncs{Tool: func(tool *hub.Tool) (bool, string) { return tool.Name != "srv__b", "b is off" }}
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools, Models: models, Guard: noB})
	if err != nil {
		t.Fatal(err)
	}
	task := Task{Text: "t", Guard: roleGuard{}}
	offeredTools, offeredModels := eps.Offered(task)
	if len(offeredTools) != 1 || offeredTools[0].Name != "srv__a" || len(offeredModels) != 1 ||
		len(offeredModels[0].Roles) != 1 || offeredModels[0].Roles[0] != "search" {
		t.Fatalf("offered %v and %+v", offeredTools, offeredModels)
	}
	policy := &scriptPolicy{turns: []func(context.Context, *State) (Decision, error){
		func(ctx context.Context, st *State) (Decision, error) {
			if _, err := st.CallTool(ctx, "srv__b", nil, ""); err == nil {
				t.Error("the episodes' guard was dropped")
			}
			if _, err := st.CallModel(ctx, ModelCall{Endpoint: "cloud", Role: "answer", Body: []byte(`{}`)}); err == nil {
				t.Error("a call for a removed role went through")
			}
			_, err := st.CallModel(ctx, ModelCall{Endpoint: "cloud", Role: "search", Body: []byte(`{}`)})
			return Decision{Final: true, Answer: "ok"}, err
		},
	}}
	run, err := eps.Run(context.Background(), task, policy)
	if err != nil || run.Status != RunAnswered {
		t.Fatalf("run %s: %v", run.Status, err)
	}
	if len(f.bodies) != 1 || len(tools.called) != 0 {
		t.Fatalf("%d model requests and tool calls %v, want only the search request", len(f.bodies), tools.called)
	}
}

func TestBudgetStopsAndAnswersStand(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal, CostPerCall: 0.5}, "go")
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	callThenAnswer := func(ctx context.Context, st *State) (Decision, error) {
		_, err := st.CallTool(ctx, "srv__go", json.RawMessage(`{}`), "")
		return Decision{Final: true, Answer: "from the tool"}, err
	}
	cases := []struct {
		name   string
		budget float64
		status RunStatus
		calls  int
	}{
		{"the call that reaches the budget still answers", 0.5, RunAnswered, 1},
		{"an answer resting on a refused call is not one", 0.4, RunBudgetExhausted, 0},
		{"no budget", 0, RunAnswered, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tools.called = nil
			policy := &scriptPolicy{turns: []func(context.Context, *State) (Decision, error){callThenAnswer}}
			run, _ := eps.Run(context.Background(), Task{Text: "t", BudgetUSD: tc.budget}, policy)
			if run.Status != tc.status || len(tools.called) != tc.calls {
				t.Fatalf("status %s (%s) after %d calls", run.Status, run.Error, len(tools.called))
			}
		})
	}
}

func TestCallerCancelIsNotDeadline(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal}, "go")
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	policy := &scriptPolicy{turns: []func(context.Context, *State) (Decision, error){
		func(ctx context.Context, st *State) (Decision, error) {
			_, err := st.CallTool(ctx, "srv__go", json.RawMessage(`{}`), "")
			cancel()
			return Decision{}, err
		},
	}}
	run, _ := eps.Run(ctx, Task{Text: "t", Deadline: time.Hour}, policy)
	if run.Status != RunCancelled || run.Answer != "" {
		t.Fatalf("status %s, answer %q", run.Status, run.Answer)
	}
}
