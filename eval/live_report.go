package eval

import (
	"fmt"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/policies"
)

// LiveReport summarises journal entries per policy, in the order given.
// The reward of each episode is Appendix L's against base's episode on the
// same task and repeat; episodes whose base run is missing earn none.
func LiveReport(source string, entries []JournalEntry, order []string, base string, pref policies.PreferenceVector) *Report {
	if base == "" && len(order) > 0 {
		base = order[0]
	}
	baseM := map[string]policies.RewardVector{}
	byPolicy := map[string][]JournalEntry{}
	tasks := map[string]bool{}
	for _, e := range entries {
		byPolicy[e.Policy] = append(byPolicy[e.Policy], e)
		tasks[e.TaskID] = true
		if e.Policy == base {
			baseM[episodeKey(e.TaskID, "", e.Repeat)] = e.M
		}
	}
	rep := &Report{Kind: "live", Source: source, Tasks: len(tasks), Base: base, Preference: pref,
		Notes: []string{"cost and latency are measured per episode; latency is wall time"}}
	for _, name := range order {
		rep.Policies = append(rep.Policies, livePolicy(name, byPolicy[name], baseM, pref))
	}
	markFrontier(rep.Policies)
	rep.finish()
	return rep
}

func livePolicy(name string, entries []JournalEntry, baseM map[string]policies.RewardVector, pref policies.PreferenceVector) PolicyResult {
	res := PolicyResult{Name: name, Family: FamilyBaseline, Tasks: len(entries), Calls: map[string]float64{}}
	if name == policies.PolicyKNN {
		res.Family = FamilyRouter
	}
	for _, e := range entries {
		res.Accuracy += e.Grade.Score
		res.CostUSD -= e.M.Cost
		res.LatencyS -= e.M.Latency
		for t, n := range e.M.Tools {
			res.Calls[t] += n
		}
		if e.Status != conductor.RunAnswered {
			res.Failed++
		}
		if b, ok := baseM[episodeKey(e.TaskID, "", e.Repeat)]; ok {
			res.Reward += policies.EvalReward(e.M, b, pref)
		}
	}
	if n := float64(len(entries)); n > 0 {
		res.Accuracy, res.CostUSD, res.LatencyS, res.Reward = res.Accuracy/n, res.CostUSD/n, res.LatencyS/n, res.Reward/n
		for t := range res.Calls {
			res.Calls[t] /= n
		}
	}
	return res
}

// Summary is a one-line account of a finished live eval.
func (p Progress) Summary() string {
	return fmt.Sprintf("%d/%d episodes  accuracy %.3f  spend $%.4f", p.Done, p.Total, p.Accuracy, p.SpendUSD)
}
