package conductor

import (
	"context"
	"encoding/json"
	"errors"
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
	// A call takes time: Windows' clock moves in ticks, so a call that
	// returns at once can measure no wall time at all.
	for start := time.Now(); time.Since(start) <= 0; {
	}
	raw, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": "ran " + name}}})
	return &hub.CallResult{Raw: raw}, nil
}

// scriptPolicy is a hand-written Chooser: each turn runs its actions in
// order, then ends; hear, when set, receives every outcome.
type scriptPolicy struct {
	turns [][]Action
	start func(st *State)
	hear  func(*Outcome)
}

// scriptMemory is where the script is: the turn and the next action.
type scriptMemory struct{ turn, next int }

func (p *scriptPolicy) Begin(st *State) Decider { return Begin[scriptMemory](p, st) }

func (p *scriptPolicy) Start(st *State) scriptMemory {
	if p.start != nil {
		p.start(st)
	}
	return scriptMemory{}
}

func (p *scriptPolicy) Decide(st *State, mem scriptMemory, last *Outcome) (Action, scriptMemory) {
	if last != nil && p.hear != nil {
		p.hear(last)
	}
	if mem.turn != st.Turn {
		mem = scriptMemory{turn: st.Turn}
	}
	acts := p.turns[st.Turn-1]
	if mem.next == len(acts) {
		return Action{Kind: ActEndTurn}, mem
	}
	mem.next++
	return acts[mem.next-1], mem
}

func toolAct(name string, args string) Action {
	return Action{Kind: ActTool, Tool: name, Args: json.RawMessage(args)}
}

func modelAct(call ModelCall) Action { return Action{Kind: ActModel, Model: call} }

func answerAct(text string) Action { return Action{Kind: ActAnswer, Answer: text} }

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
	chat := startChat(t)
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "cloud", BaseURL: chat.URL() + "/v1", ModelID: "x", Locality: hub.LocalityRemote}}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools, Models: models, Guard: denyRemote()})
	if err != nil {
		t.Fatal(err)
	}
	var offeredTools, offeredModels int
	policy := &scriptPolicy{
		turns: [][]Action{{toolAct("web__fetch", ""), modelAct(ModelCall{Endpoint: "cloud", Body: []byte(`{}`)}), answerAct("none")}},
		start: func(st *State) { offeredTools, offeredModels = len(st.Tools), len(st.Models) },
		hear: func(o *Outcome) {
			var ge *GuardError
			if !errors.As(o.Err, &ge) {
				t.Errorf("guard let a call through: %+v", o)
			}
		},
	}
	run, err := eps.Run(context.Background(), Task{Text: "t"}, policy)
	if err != nil {
		t.Fatal(err)
	}
	if offeredTools != 0 || offeredModels != 0 {
		t.Fatalf("offered %d tools and %d models", offeredTools, offeredModels)
	}
	if len(tools.called) != 0 || len(chat.Requests()) != 0 {
		t.Fatalf("refused calls reached the tool (%v) or the model (%d)", tools.called, len(chat.Requests()))
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
	chat := startChat(t)
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "loc", BaseURL: chat.URL() + "/v1", ModelID: "x", Locality: hub.LocalityLocal, PriceIn: 1, PriceOut: 2}}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bus := events.New(events.Options{})
	sub := bus.Subscribe(events.Filter{Buffer: 16})
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools, Models: models, Bus: bus})
	if err != nil {
		t.Fatal(err)
	}
	policy := &scriptPolicy{turns: [][]Action{
		{toolAct("srv__go", `{}`)},
		{modelAct(ModelCall{Endpoint: "loc", Alias: "answer-1", Body: []byte(`{}`)}), answerAct("done")},
	}, hear: func(o *Outcome) {
		if o.Failed() {
			t.Errorf("call failed: %+v", o)
		}
	}}
	task := Task{Text: "t", PolicyName: "script"}
	run, err := eps.Run(context.Background(), task, policy)
	if err != nil {
		t.Fatal(err)
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
	var heard []Step
	for e := range sub.C() {
		n++
		if st, ok := e.Data.(Step); ok {
			heard = append(heard, st)
		}
	}
	if len(heard) != len(run.Steps) || heard[0].Tool != "srv__go" || heard[len(heard)-1].Kind != StepAnswer {
		t.Fatalf("the bus carried %d steps, the run has %d", len(heard), len(run.Steps))
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
	chat := startChat(t)
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "cloud", BaseURL: chat.URL() + "/v1", ModelID: "x",
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
	offeredTools, offeredModels, roster := eps.Offered(task)
	if len(offeredTools) != 1 || offeredTools[0].Name != "srv__a" || len(offeredModels) != 1 ||
		len(offeredModels[0].Roles) != 1 || offeredModels[0].Roles[0] != "search" {
		t.Fatalf("offered %v and %+v", offeredTools, offeredModels)
	}
	if len(roster) != 1 || len(roster[0].Roles) != 2 {
		t.Fatalf("roster %+v, want the model with both its own roles", roster)
	}
	var heard []*Outcome
	policy := &scriptPolicy{turns: [][]Action{{
		toolAct("srv__b", ""),
		modelAct(ModelCall{Endpoint: "cloud", Role: "answer", Body: []byte(`{}`)}),
		modelAct(ModelCall{Endpoint: "cloud", Role: "search", Body: []byte(`{}`)}),
		answerAct("ok"),
	}}, hear: func(o *Outcome) { heard = append(heard, o) }}
	run, err := eps.Run(context.Background(), task, policy)
	if err != nil || run.Status != RunAnswered {
		t.Fatalf("run %s: %v", run.Status, err)
	}
	if len(heard) != 3 || heard[0].Err == nil || heard[1].Err == nil || heard[2].Failed() {
		t.Fatalf("outcomes %+v: want the tool and the removed role refused, the search request answered", heard)
	}
	if len(chat.Requests()) != 1 || len(tools.called) != 0 {
		t.Fatalf("%d model requests and tool calls %v, want only the search request", len(chat.Requests()), tools.called)
	}
}

func TestBudgetStopsAndAnswersStand(t *testing.T) {
	tools := newFakeTools(hub.ServerMeta{Name: "srv", Locality: hub.LocalityLocal, CostPerCall: 0.5}, "go")
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	callThenAnswer := []Action{toolAct("srv__go", `{}`), answerAct("from the tool")}
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
			policy := &scriptPolicy{turns: [][]Action{callThenAnswer}}
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
	policy := &scriptPolicy{turns: [][]Action{{toolAct("srv__go", `{}`)}}, hear: func(*Outcome) { cancel() }}
	run, _ := eps.Run(ctx, Task{Text: "t", Deadline: time.Hour}, policy)
	if run.Status != RunCancelled || run.Answer != "" {
		t.Fatalf("status %s, answer %q", run.Status, run.Answer)
	}
}
