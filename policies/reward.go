package policies

import (
	"maps"
	"slices"

	"github.com/toolhub/toolhub/runlog"
)

// RewardVector is the paper's M^τ for one rollout: calls per tool or alias,
// the outcome, −cost in USD and −latency in seconds (higher is better
// throughout, as in hub.RewardComponents).
type RewardVector struct {
	Tools   map[string]float64 `json:"tools"`
	Outcome float64            `json:"outcome"` // 1 solved, 0 not; graded scores in [0,1] allowed
	Cost    float64            `json:"cost"`    // −USD
	Latency float64            `json:"latency"` // −seconds
}

// PreferenceVector is P: one weight per tool or alias, then the outcome,
// cost and latency weights, each in [0,1].
type PreferenceVector struct {
	Tools   map[string]float64 `json:"tools,omitempty"`
	Outcome float64            `json:"outcome"`
	Cost    float64            `json:"cost"`
	Latency float64            `json:"latency"`
}

// SolvedThreshold is the outcome at or above which a rollout counts as
// solved (graded scores below it earn no preference reward).
const SolvedThreshold = 0.5

// Solved reports whether the rollout solved its task.
func (v RewardVector) Solved() bool { return v.Outcome >= SolvedThreshold }

// RewardFromComponents builds M from an exported run's components with the
// outcome graded by the caller (the export's own outcome is exact match).
// A model's calls count under its model entry's name where the export
// names it (AliasModels), since that is what the preferences, and so
// Preferences.Vector's P, weigh; under its alias otherwise. Two aliases of
// one model (search-1 and answer-2, say) add up.
func RewardFromComponents(c runlog.RewardComponents, outcome float64) RewardVector {
	tools := make(map[string]float64, len(c.ToolCounts))
	for t, n := range c.ToolCounts {
		if model, ok := c.AliasModels[t]; ok {
			t = model
		}
		tools[t] += float64(n)
	}
	return RewardVector{Tools: tools, Outcome: outcome, Cost: c.Cost, Latency: c.Latency}
}

// GroupRewards is the training reward of §3.2 over a rollout group of one
// task: each entry of M is min-max normalised over the group ((M − min) /
// (max − min), 0 when max = min), and R = M_norm · P for solved rollouts,
// 0 for the others.
func GroupRewards(group []RewardVector, p PreferenceVector) []float64 {
	out := make([]float64, len(group))
	entries := func(v RewardVector) []float64 { return vectorEntries(v, toolKeys(group)) }
	lo, hi := entryBounds(group, entries)
	weights := weightEntries(p, toolKeys(group))
	for i, v := range group {
		if !v.Solved() {
			continue
		}
		for k, m := range entries(v) {
			if hi[k] > lo[k] {
				out[i] += (m - lo[k]) / (hi[k] - lo[k]) * weights[k]
			}
		}
	}
	return out
}

// Appendix L units: cost in US cents and latency in minutes, the units of
// the paper's Table 1.
const (
	centsPerUSD      = 100
	secondsPerMinute = 60
)

// EvalReward is the Appendix L evaluation reward of one example against a
// base run on the same example: tool counts and outcome enter as
// M_s / max(1, M_0), cost and latency (as positive cents and minutes) as
// M_0 / max(1, M_s); R^e = M_norm · P when solved, else 0.
func EvalReward(s, base RewardVector, p PreferenceVector) float64 {
	if !s.Solved() {
		return 0
	}
	r := p.Outcome * s.Outcome / max(1, base.Outcome)
	for t, w := range p.Tools {
		r += w * s.Tools[t] / max(1, base.Tools[t])
	}
	cost, baseCost := -s.Cost*centsPerUSD, -base.Cost*centsPerUSD
	latency, baseLatency := -s.Latency/secondsPerMinute, -base.Latency/secondsPerMinute
	r += p.Cost * baseCost / max(1, cost)
	r += p.Latency * baseLatency / max(1, latency)
	return r
}

// toolKeys is the sorted union of the group's tools.
func toolKeys(group []RewardVector) []string {
	seen := map[string]bool{}
	for _, v := range group {
		for t := range v.Tools {
			seen[t] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// vectorEntries lays M out as [n_t1 … n_tn, outcome, cost, latency].
func vectorEntries(v RewardVector, tools []string) []float64 {
	out := make([]float64, 0, len(tools)+3)
	for _, t := range tools {
		out = append(out, v.Tools[t])
	}
	return append(out, v.Outcome, v.Cost, v.Latency)
}

func weightEntries(p PreferenceVector, tools []string) []float64 {
	out := make([]float64, 0, len(tools)+3)
	for _, t := range tools {
		out = append(out, p.Tools[t])
	}
	return append(out, p.Outcome, p.Cost, p.Latency)
}

func entryBounds(group []RewardVector, entries func(RewardVector) []float64) (lo, hi []float64) {
	for i, v := range group {
		e := entries(v)
		if i == 0 {
			lo, hi = slices.Clone(e), slices.Clone(e)
			continue
		}
		for k, m := range e {
			lo[k], hi[k] = min(lo[k], m), max(hi[k], m)
		}
	}
	return lo, hi
}
