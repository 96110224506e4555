package eval

import (
	"slices"

	"github.com/toolhub/toolhub/policies"
)

// PolicyResult is one row of a report: a policy's accuracy, cost, latency,
// tool use and preference reward over the tasks it ran.
type PolicyResult struct {
	Name       string   `json:"name"`
	Family     string   `json:"family"`                // single, baseline or router
	CostWeight *float64 `json:"cost_weight,omitempty"` // routers swept over cost weights
	Tasks      int      `json:"tasks"`                 // graded episodes
	Accuracy   float64  `json:"accuracy"`              // mean score in [0,1]
	CostUSD    float64  `json:"-"`                     // mean USD per task
	CostPer1k  float64  `json:"cost_usd_per_1k"`       // mean USD per 1,000 tasks
	LatencyS   float64  `json:"-"`                     // mean seconds per task whose latency is known
	// MeanLatencyS is LatencyS in JSON: null when no task's latency is
	// known (LatencyKnown), never a 0 that would read as instant.
	MeanLatencyS *float64 `json:"latency_s"`
	// LatencyUnknown counts the tasks answered by a model of unknown
	// latency, left out of LatencyS.
	LatencyUnknown int                `json:"latency_unknown,omitempty"`
	Calls          map[string]float64 `json:"calls_per_task"`   // mean calls per task, per tool or model
	Reward         float64            `json:"reward"`           // mean Appendix L reward against the base
	Failed         int                `json:"failed,omitempty"` // episodes that ended without an answer
	OnFrontier     bool               `json:"on_frontier"`      // not dominated in accuracy and cost
}

// Report is an evaluation in the paper's shape.
type Report struct {
	Kind       string                    `json:"kind"` // replay or live
	Source     string                    `json:"source"`
	Split      string                    `json:"split,omitempty"` // replay: test or validation
	Tasks      int                       `json:"tasks"`
	Base       string                    `json:"base"` // the reward's base policy
	Preference policies.PreferenceVector `json:"preference"`
	Notes      []string                  `json:"notes,omitempty"`
	Policies   []PolicyResult            `json:"policies"`
	Sweeps     []*SweepSummary           `json:"sweeps,omitempty"` // one per router
	// Chosen is the operating point ChosenRule picks among the sweeps'.
	Chosen  string `json:"chosen_operating_point,omitempty"`
	Command string `json:"command,omitempty"` // how to reproduce it
}

// Point is one (cost, accuracy) pair; cost in USD per task (JSON: per
// 1,000 tasks).
type Point struct {
	CostUSD  float64
	Accuracy float64
}

// CostUnit is the one unit reports show costs in.
const CostUnit = "USD/1k tasks"

// finish fills the derived fields: costs per 1,000 tasks, and the mean
// latency for JSON where one is known.
func (r *Report) finish() {
	for i := range r.Policies {
		p := &r.Policies[i]
		p.CostPer1k = per1k(p.CostUSD)
		p.MeanLatencyS = nil
		if p.LatencyKnown() {
			lat := p.LatencyS
			p.MeanLatencyS = &lat
		}
	}
}

// LatencyKnown reports whether some answer the policy chose had a known
// latency, so that LatencyS means something.
func (p PolicyResult) LatencyKnown() bool {
	return p.Tasks == 0 || p.LatencyUnknown < p.Tasks
}

// Find returns the result called name.
func (r *Report) Find(name string) (PolicyResult, bool) {
	i := slices.IndexFunc(r.Policies, func(p PolicyResult) bool { return p.Name == name })
	if i < 0 {
		return PolicyResult{}, false
	}
	return r.Policies[i], true
}

// markFrontier flags the Pareto frontier: policies no other policy beats on
// accuracy without costing more, or on cost without being less accurate.
// The oracle is left out: it is a bound, not a policy.
func markFrontier(results []PolicyResult) {
	for i := range results {
		results[i].OnFrontier = results[i].Name != OracleName
		if !results[i].OnFrontier {
			continue
		}
		for j, o := range results {
			if j == i || o.Name == OracleName {
				continue
			}
			if dominates(o, results[i]) {
				results[i].OnFrontier = false
				break
			}
		}
	}
}

func dominates(a, b PolicyResult) bool {
	return a.Accuracy >= b.Accuracy && a.CostUSD <= b.CostUSD && (a.Accuracy > b.Accuracy || a.CostUSD < b.CostUSD)
}

// Frontier returns the frontier's points by increasing cost.
func (r *Report) Frontier() []Point {
	var pts []Point
	for _, p := range r.Policies {
		if p.OnFrontier {
			pts = append(pts, Point{CostUSD: p.CostUSD, Accuracy: p.Accuracy})
		}
	}
	slices.SortFunc(pts, func(a, b Point) int { return cmpFloat(a.CostUSD, b.CostUSD) })
	return pts
}
