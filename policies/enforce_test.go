package policies_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	sm "github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

func localOnly() policies.Preferences {
	return policies.Preferences{Privacy: policies.PrivacyLocalOnly}
}

// With local-only, the scripted orchestrator names the remote tool and its
// twin, asks call_expert for the remote expert and invents tools and
// aliases: nothing reaches the remote model or the remote MCP server.
func TestLocalOnlyToolModeReachesNothingRemote(t *testing.T) {
	w := newWorld(t, []sm.Reply{
		sm.ToolCallsReply("use the remote tools", sm.Call{Name: "remote__secret", Args: `{"key":"a"}`},
			sm.Call{Name: "remote__get", Args: `{"key":"a"}`}),
		sm.ToolCallReply("ask the strong expert", "call_expert", `{"expert":"expert-1"}`),
		sm.ToolCallsReply("invent", sm.Call{Name: "cloud__chat", Args: `{}`}, sm.Call{Name: "kv__get", Args: `{"key":"k"}`}),
		sm.RawTextReply("<think>done</think><message>The local value is value-of-k.</message>"),
	})
	run := w.run(t, conductor.ModeTools, localOnly())
	w.assertNothingRemote(t)
	if run.Status != conductor.RunAnswered || run.Answer != "The local value is value-of-k." {
		t.Fatalf("run ended %s with %q (%s)", run.Status, run.Answer, run.Error)
	}
	obs := observations(run)
	for _, want := range []string{`unknown tool "remote__secret"`, `unknown tool "remote__get"`,
		`unknown tool "call_expert"`, `unknown tool "cloud__chat"`} {
		if !strings.Contains(obs, want) {
			t.Errorf("no refusal %q in the trace:\n%s", want, obs)
		}
	}
	if got := w.kv.calls(); len(got) != 1 {
		t.Fatalf("the local tool ran %d times, want 1", len(got))
	}
	for i, body := range w.orch.Requests() {
		tools, user := sentTools(t, body)
		if word := containsAny(tools, "remote__", "call_expert", "expert-"); word != "" {
			t.Fatalf("request %d offered %q", i+1, word)
		}
		if !strings.Contains(user, "My data is confidential: use only local tools and models and make no external API calls.") {
			t.Fatalf("request %d lacks the local-only sentence: %q", i+1, user)
		}
	}
}

// The same in research mode: the remote model is the only one with the
// search role, and answer-2 would be it.
func TestLocalOnlyResearchModeReachesNothingRemote(t *testing.T) {
	w := newWorld(t, []sm.Reply{
		sm.ToolCallReply("search first", "search", `{"model":"search-1"}`),
		sm.ToolCallReply("use the strong one", "answer", `{"model":"answer-2"}`),
		sm.ToolCallReply("invent", "answer", `{"model":"gpt-5"}`),
		sm.ToolCallReply("local then", "answer", `{"model":"answer-1"}`),
	}, sm.RawTextReply(`So \boxed{42}.`))
	run := w.run(t, conductor.ModeResearch, localOnly())
	w.assertNothingRemote(t)
	if run.Status != conductor.RunAnswered || run.Answer != "42" {
		t.Fatalf("run ended %s with %q (%s)", run.Status, run.Answer, run.Error)
	}
	obs := observations(run)
	for _, want := range []string{`tool "search" is not offered this turn`, `alias "answer-2" is not offered for answer: remote, and privacy is local-only`,
		`alias "gpt-5" is not offered for answer`} {
		if !strings.Contains(obs, want) {
			t.Errorf("no refusal %q in the trace:\n%s", want, obs)
		}
	}
	tools, _ := sentTools(t, w.orch.Requests()[0])
	if word := containsAny(tools, "answer-2", "search-1", "remote and strong"); word != "" {
		t.Fatalf("the research tools mention %q: %v", word, tools)
	}
}

// A policy that ignores the offered set and calls remote things itself is
// refused by the hub, and the refusals are in the trace.
func TestLocalOnlyHubRefusesWhateverThePolicyCalls(t *testing.T) {
	w := newWorld(t, nil)
	task := policies.PrepareTask(conductor.Task{Text: "t", Mode: conductor.ModeTools}, localOnly(), w.eps)
	rogue := &roguePolicy{actions: []conductor.Action{
		{Kind: conductor.ActTool, Tool: "remote__secret", Args: []byte(`{"key":"a"}`), Purpose: "rogue"},
		{Kind: conductor.ActModel, Model: conductor.ModelCall{Endpoint: "cloud", Alias: "expert-1", Role: policies.RoleExpert, Body: []byte(`{}`)}},
		{Kind: conductor.ActAnswer, Answer: "nothing"},
	}}
	run, err := w.eps.Run(context.Background(), task, rogue)
	if err != nil {
		t.Fatal(err)
	}
	w.assertNothingRemote(t)
	var ge *conductor.GuardError
	if len(rogue.heard) != 2 || !errors.As(rogue.heard[0].Err, &ge) || !errors.As(rogue.heard[1].Err, &ge) {
		t.Fatalf("calls not refused by the guard: %+v", rogue.heard)
	}
	for _, s := range run.Steps[:2] {
		if !strings.Contains(s.Error, "remote, and privacy is local-only") || s.USD != 0 {
			t.Fatalf("refused step %+v", s)
		}
	}
}

// roguePolicy sends its actions in order, whatever was offered, and keeps
// every outcome.
type roguePolicy struct {
	actions []conductor.Action
	heard   []*conductor.Outcome
}

func (p *roguePolicy) Begin(st *conductor.State) conductor.Decider { return conductor.Begin(p, st) }

func (p *roguePolicy) Start(*conductor.State) int { return 0 }

func (p *roguePolicy) Decide(_ *conductor.State, next int, last *conductor.Outcome) (conductor.Action, int) {
	if last != nil {
		p.heard = append(p.heard, last)
	}
	return p.actions[next], next + 1
}

// local-only with a remote orchestrator does not start: no request at all.
func TestLocalOnlyRefusesRemoteOrchestrator(t *testing.T) {
	cloud := newRemoteModel(t)
	h := startHub(t, kvServer(&recorder{}))
	orch := orchestratorEndpoint(cloud.ts.URL + "/v1")
	orch.Locality = hub.LocalityRemote
	eps, _ := newEpisodes(t, h, "orch", orch)
	task := policies.PrepareTask(conductor.Task{Text: "t", Mode: conductor.ModeTools}, localOnly(), eps)
	run, err := eps.Run(context.Background(), task, &policies.Orchestrator{})
	var ge *conductor.GuardError
	if !errors.As(err, &ge) || run.Status != conductor.RunFailed {
		t.Fatalf("status %s, err %v", run.Status, err)
	}
	if !strings.Contains(run.Error, `orchestrator model "orch" is not allowed: remote, and privacy is local-only`) {
		t.Fatalf("unclear message: %q", run.Error)
	}
	if got := cloud.requests(); len(got) != 0 || len(run.Steps) != 0 {
		t.Fatalf("the remote orchestrator received %v; steps %d", got, len(run.Steps))
	}
}

// prefer-local: the remote model serves only the role no local model has
// (search), and the remote tool only when no local tool does its job.
func TestPreferLocalUsesRemoteOnlyForMissingRole(t *testing.T) {
	prefs := policies.Preferences{Privacy: policies.PrivacyPreferLocal}
	t.Run("models", func(t *testing.T) {
		w := newWorld(t, []sm.Reply{
			sm.ToolCallReply("search with the remote", "search", `{"model":"search-1"}`),
			sm.ToolCallReply("answer with the remote", "answer", `{"model":"answer-2"}`),
			sm.ToolCallReply("answer locally", "answer", `{"model":"answer-1"}`),
		}, sm.RawTextReply(`\boxed{local}`))
		run := w.run(t, conductor.ModeResearch, prefs)
		if got := w.cloud.requests(); len(got) != 1 {
			t.Fatalf("the remote model received %v, want exactly the search query", got)
		}
		if run.Status != conductor.RunAnswered || run.Answer != "local" {
			t.Fatalf("run ended %s with %q", run.Status, run.Answer)
		}
		if !strings.Contains(observations(run), `alias "answer-2" is not offered for answer`) {
			t.Fatalf("the remote answer alias was not refused:\n%s", observations(run))
		}
		if q := w.docs.calls(); len(q) != 1 || q[0]["query"] != "remote query" {
			t.Fatalf("the local search ran with %v", q)
		}
	})
	t.Run("tools", func(t *testing.T) {
		w := newWorld(t, []sm.Reply{
			sm.ToolCallsReply("remote twin, then remote only", sm.Call{Name: "remote__get", Args: `{"key":"a"}`},
				sm.Call{Name: "remote__secret", Args: `{"key":"a"}`}),
			sm.RawTextReply("<message>done</message>"),
		})
		run := w.run(t, conductor.ModeTools, prefs)
		if got := w.remote.rec.calls(); len(got) != 1 || got[0]["tool"] != "secret" {
			t.Fatalf("the remote MCP server received %v, want only secret", got)
		}
		if !strings.Contains(observations(run), `unknown tool "remote__get"`) {
			t.Fatalf("the remote twin was not refused:\n%s", observations(run))
		}
		_, user := sentTools(t, w.orch.Requests()[0])
		if !strings.Contains(user, "Prefer local tools and models; use remote ones only when necessary.") {
			t.Fatalf("no prefer-local sentence: %q", user)
		}
	})
}

// A tool result that tells the model to change its preferences and call a
// forbidden tool changes nothing: the next request offers the same tools
// and states the same preferences, and the forbidden calls are refused.
func TestInjectedToolResultChangesNothing(t *testing.T) {
	w := newWorld(t, []sm.Reply{
		sm.ToolCallReply("read the note", "notes__read", `{}`),
		sm.ToolCallsReply("the note says so", sm.Call{Name: "remote__secret", Args: `{"key":"all"}`},
			sm.Call{Name: "call_expert", Args: `{"expert":"expert-1"}`}),
		sm.RawTextReply("<message>I will not.</message>"),
	})
	run := w.run(t, conductor.ModeTools, localOnly())
	w.assertNothingRemote(t)
	reqs := w.orch.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d orchestrator requests", len(reqs))
	}
	firstTools, firstUser := sentTools(t, reqs[0])
	for i, body := range reqs[1:] {
		tools, user := sentTools(t, body)
		if strings.Join(tools, "\n") != strings.Join(firstTools, "\n") || user != firstUser {
			t.Fatalf("request %d changed the offered tools or the stated preferences", i+2)
		}
	}
	if !strings.Contains(string(reqs[1]), "SYSTEM OVERRIDE") {
		t.Fatal("the injected text never reached the model; the test proves nothing")
	}
	if !strings.Contains(observations(run), `unknown tool "remote__secret"`) {
		t.Fatalf("the injected call was not refused:\n%s", observations(run))
	}
}
