package policies_test

import (
	"maps"
	"math"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/runlog"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// TestGroupRewardHandComputed checks §3.2's min-max normalised reward on a
// group worked out by hand.
func TestGroupRewardHandComputed(t *testing.T) {
	group := []policies.RewardVector{
		{Tools: map[string]float64{"search-1": 2}, Outcome: 1, Cost: -0.30, Latency: -60},
		{Tools: map[string]float64{"search-1": 0}, Outcome: 1, Cost: -0.10, Latency: -30},
		{Tools: map[string]float64{"search-1": 1}, Outcome: 0, Cost: -0.05, Latency: -10},
	}
	p := policies.PreferenceVector{Tools: map[string]float64{"search-1": 0}, Outcome: 1, Cost: 1, Latency: 0.5}
	// Rollout 0: outcome (1−0)/1 = 1, cost (−0.30+0.30)/0.25 = 0, latency 0 → 1.
	// Rollout 1: outcome 1, cost (−0.10+0.30)/0.25 = 0.8, latency (−30+60)/50 × 0.5 = 0.3 → 2.1.
	// Rollout 2: not solved → 0.
	want := []float64{1, 2.1, 0}
	got := policies.GroupRewards(group, p)
	for i := range want {
		if !near(got[i], want[i]) {
			t.Errorf("rollout %d: reward %v, want %v", i, got[i], want[i])
		}
	}
}

func TestGroupRewardEqualEntriesCountZero(t *testing.T) {
	v := policies.RewardVector{Outcome: 1, Cost: -0.2, Latency: -5}
	got := policies.GroupRewards([]policies.RewardVector{v, v}, policies.PreferenceVector{Outcome: 1, Cost: 1, Latency: 1})
	if got[0] != 0 || got[1] != 0 {
		t.Fatalf("max = min must normalise to 0, got %v", got)
	}
}

// TestEvalRewardHandComputed checks Appendix L's per-example metric.
func TestEvalRewardHandComputed(t *testing.T) {
	base := policies.RewardVector{Tools: map[string]float64{"answer-1": 1}, Outcome: 0, Cost: -0.10, Latency: -300}
	p := policies.PreferenceVector{Tools: map[string]float64{"answer-1": 0.5}, Outcome: 1, Cost: 1, Latency: 1}
	cases := []struct {
		name string
		s    policies.RewardVector
		want float64
	}{
		// tools 2/max(1,1) × 0.5 = 1; outcome 1/max(1,0) = 1; cost 10¢/max(1,5¢) = 2;
		// latency 5 min/max(1, 2 min) = 2.5.
		{"solved", policies.RewardVector{Tools: map[string]float64{"answer-1": 2}, Outcome: 1, Cost: -0.05, Latency: -120}, 6.5},
		// cost 10¢/max(1, 0.2¢) = 10; latency 5/max(1, 0.5) = 5; no calls.
		{"cheap and fast", policies.RewardVector{Outcome: 1, Cost: -0.002, Latency: -30}, 16},
		{"unsolved", policies.RewardVector{Tools: map[string]float64{"answer-1": 2}, Outcome: 0, Cost: -0.01, Latency: -1}, 0},
		{"graded below threshold", policies.RewardVector{Outcome: 0.4, Cost: -0.01, Latency: -1}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := policies.EvalReward(tc.s, base, p); !near(got, tc.want) {
				t.Fatalf("reward %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRewardFromExportedRun builds M from the run export's components: a
// model's calls count under its model entry's name, the name P weighs.
func TestRewardFromExportedRun(t *testing.T) {
	run := &conductor.Run{ID: "r1", Task: "q", Status: conductor.RunAnswered, Answer: "42", Expected: "41",
		Steps: []conductor.Step{
			{Kind: conductor.StepModel, Alias: policies.AliasOrchestrator},
			{Kind: conductor.StepModel, Alias: "search-1", Endpoint: "local"},
			{Kind: conductor.StepTool, Tool: "search_documents"},
			{Kind: conductor.StepModel, Alias: "search-1", Endpoint: "local"},
			{Kind: conductor.StepModel, Alias: "answer-2", Endpoint: "local"},
			{Kind: conductor.StepModel, Alias: "answer-1"}, // a trace without the endpoint
		},
		Totals: conductor.Totals{USD: 0.02, Wall: 3 * time.Second}}
	m := policies.RewardFromComponents(runlog.ExportTrajectory(run).Reward, 1)
	want := map[string]float64{"local": 3, "search_documents": 1, "answer-1": 1}
	if !maps.Equal(m.Tools, want) {
		t.Errorf("tool counts %v, want %v", m.Tools, want)
	}
	pref := policies.Preferences{Models: map[string]policies.Weight{"local": policies.WeightPrefer}}.Vector()
	if w := pref.Tools["local"] * m.Tools["local"]; w != 3 {
		t.Errorf("P weighs the preferred model's calls %v, want 3 (P %v, M %v)", w, pref.Tools, m.Tools)
	}
	if m.Outcome != 1 || !near(m.Cost, -0.02) || !near(m.Latency, -3) {
		t.Errorf("outcome %v cost %v latency %v", m.Outcome, m.Cost, m.Latency)
	}
}
