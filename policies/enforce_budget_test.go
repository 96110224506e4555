package policies_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
	sm "github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// limitsWorld is a local scripted orchestrator priced priceIn/priceOut USD
// per 1M tokens over the local kv__get, which costs toolUSD per call.
func limitsWorld(t *testing.T, priceIn, priceOut, toolUSD float64, script ...sm.Reply) (*conductor.Episodes, *sm.Server, *recorder) {
	t.Helper()
	orch := scripted(t, script...)
	kv := &recorder{}
	spec := kvServer(kv)
	spec.CostPerCall = toolUSD
	h := startHub(t, spec)
	ep := orchestratorEndpoint(orch.URL() + "/v1")
	ep.PriceIn, ep.PriceOut = priceIn, priceOut
	eps, _ := newEpisodes(t, h, "orch", ep)
	return eps, orch, kv
}

func getKey(key string) sm.Reply {
	return sm.ToolCallReply("read "+key, "kv__get", `{"key":"`+key+`"}`).WithUsage(10000, 0)
}

func runLimited(t *testing.T, eps *conductor.Episodes, prefs policies.Preferences) *conductor.Run {
	t.Helper()
	task := policies.PrepareTask(conductor.Task{Text: "Read the keys.", Mode: conductor.ModeTools}, prefs, eps)
	run, err := eps.Run(context.Background(), task, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// Budget $0.025, free orchestrator, kv__get at $0.01 a call: two calls
// spend $0.02; the third would make $0.03 and is refused before it runs.
func TestBudgetRefusesToolCallBeforeItRuns(t *testing.T) {
	eps, orch, kv := limitsWorld(t, 0, 0, 0.01, getKey("k1"), getKey("k2"), getKey("k3"), sm.RawTextReply("<message>done</message>"))
	run := runLimited(t, eps, policies.Preferences{Privacy: policies.PrivacyAny, BudgetUSD: 0.025})
	if run.Status != conductor.RunBudgetExhausted || !approx(run.Totals.USD, 0.02) || len(kv.calls()) != 2 {
		t.Fatalf("status %s, spent %v, %d tool calls", run.Status, run.Totals.USD, len(kv.calls()))
	}
	want := "budget: tool kv__get would cost about $0.01 with $0.02 of the $0.025 budget spent; " +
		"done so far in 3 turns: 3 model calls (orchestrator ×3), 2 tool calls (kv__get ×2), 1 call failed or refused; no answer yet"
	if run.Error != want {
		t.Fatalf("error %q, want %q", run.Error, want)
	}
	if run.Answer != "" {
		t.Fatalf("a tool's output passed off as the answer: %q", run.Answer)
	}
	if n := len(orch.Requests()); n != 3 {
		t.Fatalf("%d orchestrator requests, want 3", n)
	}
}

// Budget $0.015, orchestrator at $1 per 1M input tokens, each reply
// billed 10,000 prompt tokens = $0.01: the check before turn 2 passes
// (about $0.001 expected on top of $0.01), the real cost after it makes
// $0.02, and the episode stops before the tool call that reply asked for.
func TestBudgetStopsAfterTheRealCost(t *testing.T) {
	eps, orch, kv := limitsWorld(t, 1, 0, 0, getKey("k1"), getKey("k2"), sm.RawTextReply("<message>done</message>"))
	run := runLimited(t, eps, policies.Preferences{Privacy: policies.PrivacyAny, BudgetUSD: 0.015})
	if run.Status != conductor.RunBudgetExhausted || !approx(run.Totals.USD, 0.02) || run.Totals.ModelCalls != 2 {
		t.Fatalf("status %s, spent %v, %d model calls", run.Status, run.Totals.USD, run.Totals.ModelCalls)
	}
	if want := "budget: $0.02 of the $0.015 budget is spent; " +
		"done so far in 2 turns: 2 model calls (orchestrator ×2), 1 tool call (kv__get), 1 call failed or refused; no answer yet"; run.Error != want {
		t.Fatalf("error %q, want %q", run.Error, want)
	}
	if got := kv.calls(); len(got) != 1 || got[0]["key"] != "k1" {
		t.Fatalf("tool calls %v, want only k1", got)
	}
	if run.Answer != "" || len(orch.Requests()) != 2 {
		t.Fatalf("answer %q, %d requests", run.Answer, len(orch.Requests()))
	}
}

// Budget $0.0015, orchestrator at $0.2 per 1M tokens: tool mode asks for
// up to 8,000 tokens ($0.0016 on top of the prompt), more than the budget,
// while the turn itself costs $0.000104. The request goes out with
// max_tokens lowered to what the budget pays for, and the episode answers.
func TestBudgetLowersOrchestratorMaxTokens(t *testing.T) {
	eps, orch, _ := limitsWorld(t, 0.2, 0.2, 0, sm.RawTextReply("<message>done</message>").WithUsage(500, 20))
	run := runLimited(t, eps, policies.Preferences{Privacy: policies.PrivacyAny, BudgetUSD: 0.0015})
	if run.Status != conductor.RunAnswered || run.Answer != "done" || !approx(run.Totals.USD, cost(500, 20, 0.2, 0.2)) {
		t.Fatalf("status %s (%s), answer %q, spent %v", run.Status, run.Error, run.Answer, run.Totals.USD)
	}
	var req policies.ChatRequest
	if err := json.Unmarshal(orch.Requests()[0], &req); err != nil {
		t.Fatal(err)
	}
	if req.MaxTokens < conductor.MinReplyTokens || req.MaxTokens >= policies.ToolModeMaxTokens {
		t.Fatalf("max_tokens %d, want it lowered below %d", req.MaxTokens, policies.ToolModeMaxTokens)
	}
	if !strings.Contains(observations(run), "max_tokens of model orch lowered from 8000 to "+strconv.Itoa(req.MaxTokens)) {
		t.Fatalf("the lowered limit is not in the trace:\n%s", observations(run))
	}
}

// Budget $0.0002, orchestrator at $1 per 1M output tokens: not even a
// 256-token reply fits, so the first request is never sent.
func TestBudgetRefusesModelCallWhenNoReplyFits(t *testing.T) {
	eps, orch, _ := limitsWorld(t, 0, 1, 0, getKey("k1"))
	run := runLimited(t, eps, policies.Preferences{Privacy: policies.PrivacyAny, BudgetUSD: 0.0002})
	if run.Status != conductor.RunBudgetExhausted || run.Totals.USD != 0 || len(orch.Requests()) != 0 {
		t.Fatalf("status %s, spent %v, %d requests", run.Status, run.Totals.USD, len(orch.Requests()))
	}
	want := "budget: model orch would cost about $0.000256 even with a 256-token reply, with $0 of the $0.0002 budget spent; " +
		"done so far in 1 turn: 1 call failed or refused; no answer yet"
	if run.Error != want {
		t.Fatalf("error %q, want %q", run.Error, want)
	}
	if run.Answer != "" {
		t.Fatalf("an answer without any result: %q", run.Answer)
	}
}

// A per-call override lowers the saved budget: $1 saved, $0.025 asked.
func TestBudgetOverrideTightens(t *testing.T) {
	eps, _, kv := limitsWorld(t, 0, 0, 0.01, getKey("k1"), getKey("k2"), getKey("k3"), sm.RawTextReply("<message>done</message>"))
	saved := policies.Preferences{Privacy: policies.PrivacyAny, BudgetUSD: 1}
	run := runLimited(t, eps, saved.Tighten(policies.Override{}.WithBudget(0.025)))
	if run.Status != conductor.RunBudgetExhausted || len(kv.calls()) != 2 {
		t.Fatalf("status %s after %d calls", run.Status, len(kv.calls()))
	}
}

// Deadline 500ms: turn 1 reads k1, the reply of turn 2 is held back far
// longer; the episode ends as "deadline", not as "cancelled", saying what
// was done; k1's value, a tool's untrusted output, is not the answer.
func TestDeadlineSaysWhatWasDone(t *testing.T) {
	eps, _, kv := limitsWorld(t, 0, 0, 0.01, getKey("k1"), getKey("k2").WithDelay(time.Minute))
	run := runLimited(t, eps, policies.Preferences{Privacy: policies.PrivacyAny, Deadline: policies.Duration(500 * time.Millisecond)})
	want := "the deadline of 500ms passed; done so far in 2 turns: 1 model call (orchestrator), 1 tool call (kv__get), " +
		"1 call failed or refused; no answer yet"
	if run.Status != conductor.RunDeadline || run.Error != want {
		t.Fatalf("status %s: %s", run.Status, run.Error)
	}
	if run.Answer != "" || len(kv.calls()) != 1 || !approx(run.Totals.USD, 0.01) {
		t.Fatalf("answer %q, %d calls, spent %v", run.Answer, len(kv.calls()), run.Totals.USD)
	}
}

// max_turns 2 in the preferences: two tool turns, then "no answer".
func TestMaxTurnsFromPreferences(t *testing.T) {
	eps, _, _ := limitsWorld(t, 0, 0, 0, getKey("k1"), getKey("k2"), getKey("k3"))
	run := runLimited(t, eps, policies.Preferences{Privacy: policies.PrivacyAny, MaxTurns: 2})
	if run.Status != conductor.RunNoAnswer || run.Totals.Turns != 2 {
		t.Fatalf("status %s after %d turns", run.Status, run.Totals.Turns)
	}
}
