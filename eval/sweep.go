package eval

import (
	"math"
	"slices"
	"strings"
)

// SweepSummary compares a router swept over cost weights with the best
// single model and, as RouteLLM does, with a strong and a weak model.
// Costs are USD per 1,000 tasks.
type SweepSummary struct {
	Router     string  `json:"router"`
	BestSingle string  `json:"best_single"`
	BestAcc    float64 `json:"best_single_accuracy"`
	BestCost   float64 `json:"best_single_cost_usd_per_1k"`
	// Matching is the cheapest reported sweep point at least as accurate as
	// the best single model ("" when none is); Saving is 1 − its cost /
	// BestCost. Both are read off the scored split, so they describe the
	// sweep; the operating point is what a user gets.
	Matching string  `json:"matching,omitempty"`
	Saving   float64 `json:"saving,omitempty"`
	// Gain is the best sweep accuracy at no more than BestCost, minus BestAcc.
	Gain float64 `json:"gain"`
	// Operating is the setting chosen on the train split (OperatingRule).
	Operating *OperatingPoint `json:"operating_point,omitempty"`
	// The fixed-grid measures (see AIQNote): Strong is the strongest model
	// (best on train), Weak the cheapest; Hull is the upper convex hull of
	// the router on AIQGrid plus the weak model's point.
	Strong     string  `json:"strong"`
	StrongAcc  float64 `json:"strong_accuracy"`
	StrongCost float64 `json:"strong_cost_usd_per_1k"`
	Weak       string  `json:"weak"`
	WeakAcc    float64 `json:"weak_accuracy"`
	WeakCost   float64 `json:"weak_cost_usd_per_1k"`
	Hull       []Point `json:"hull"`
	AIQ        float64 `json:"aiq"`
	APGR       float64 `json:"apgr"`
	// AccAtHalf is the hull's accuracy at half the strong model's cost.
	AccAtHalf float64 `json:"accuracy_at_half_strong_cost"`
	// CPT50 is the cost at which the hull first recovers half the strong
	// model's gain over the weak one (PGR 50%); CPT50Share is it over
	// StrongCost. Absent when the hull never gets there.
	CPT50      *float64 `json:"cpt50_cost_usd_per_1k,omitempty"`
	CPT50Share *float64 `json:"cpt50_share_of_strong_cost,omitempty"`
}

// summariseSweep compares the results of the named router (family router,
// names "router@weight") with the singles. Costs in the summary are per
// 1,000 tasks.
func summariseSweep(results []PolicyResult, router string) *SweepSummary {
	var best *PolicyResult
	var sweep []PolicyResult
	for i, p := range results {
		switch {
		case p.Family == FamilySingle:
			if best == nil || p.Accuracy > best.Accuracy {
				best = &results[i]
			}
		case p.Family == FamilyRouter && strings.HasPrefix(p.Name, router+"@"):
			sweep = append(sweep, p)
		}
	}
	if best == nil || len(sweep) == 0 {
		return nil
	}
	s := &SweepSummary{Router: router, BestSingle: best.Name, BestAcc: best.Accuracy, BestCost: per1k(best.CostUSD), Gain: math.Inf(-1)}
	matchCost := math.Inf(1)
	for _, p := range sweep {
		if p.Accuracy >= roundAcc(best.Accuracy) && p.CostUSD < matchCost {
			s.Matching, matchCost = p.Name, p.CostUSD
		}
		if p.CostUSD <= best.CostUSD {
			s.Gain = max(s.Gain, p.Accuracy-best.Accuracy)
		}
	}
	if s.Matching != "" {
		s.Saving = 1 - matchCost/best.CostUSD
	}
	if math.IsInf(s.Gain, -1) {
		s.Gain = 0
	}
	return s
}

// per1k turns USD per task into USD per 1,000 tasks.
func per1k(usdPerTask float64) float64 { return usdPerTask * 1000 }

// roundAcc rounds to the three decimals reports print, so "reaches 0.597"
// means what the table shows.
func roundAcc(a float64) float64 { return math.Round(a*1000) / 1000 }

// upperHull is the non-decreasing upper convex hull of pts: sorted by cost,
// each point kept only if it raises accuracy and bends the hull downwards.
func upperHull(pts []Point) []Point {
	s := slices.Clone(pts)
	slices.SortFunc(s, func(a, b Point) int {
		if c := cmpFloat(a.CostUSD, b.CostUSD); c != 0 {
			return c
		}
		return cmpFloat(b.Accuracy, a.Accuracy)
	})
	var hull []Point
	for _, p := range s {
		if len(hull) > 0 && p.Accuracy <= hull[len(hull)-1].Accuracy {
			continue // non-decreasing: a costlier point must be better
		}
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) >= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull
}

// cross > 0 when o→a→b turns left (a lies below the chord o→b).
func cross(o, a, b Point) float64 {
	return (a.CostUSD-o.CostUSD)*(b.Accuracy-o.Accuracy) - (a.Accuracy-o.Accuracy)*(b.CostUSD-o.CostUSD)
}

// areaUnder is the mean height of the piecewise-linear hull over its cost
// range; a single point's AIQ is its accuracy.
func areaUnder(hull []Point) float64 {
	if len(hull) == 0 {
		return 0
	}
	width := hull[len(hull)-1].CostUSD - hull[0].CostUSD
	if width <= 0 {
		return hull[len(hull)-1].Accuracy
	}
	area := 0.0
	for i := 1; i < len(hull); i++ {
		area += (hull[i].CostUSD - hull[i-1].CostUSD) * (hull[i].Accuracy + hull[i-1].Accuracy) / 2
	}
	return area / width
}
