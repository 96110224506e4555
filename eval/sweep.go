package eval

import (
	"math"
	"slices"
)

// SweepSummary compares a router swept over cost weights with the best
// single model.
type SweepSummary struct {
	Router     string  `json:"router"`
	BestSingle string  `json:"best_single"`
	BestAcc    float64 `json:"best_single_accuracy"`
	BestCost   float64 `json:"best_single_cost_usd"`
	// Matching is the cheapest sweep point at least as accurate as the best
	// single model ("" when none is); Saving is 1 − its cost / BestCost.
	Matching string  `json:"matching,omitempty"`
	Saving   float64 `json:"saving,omitempty"`
	// Gain is the best sweep accuracy at no more than BestCost, minus BestAcc.
	Gain float64 `json:"gain"`
	// Hull is the non-decreasing upper convex hull of the sweep's points and
	// AIQ the mean accuracy under it over the swept cost range (RouterBench).
	Hull []Point `json:"hull"`
	AIQ  float64 `json:"aiq"`
}

// summariseSweep compares the results of family router with the singles.
func summariseSweep(results []PolicyResult) *SweepSummary {
	var best *PolicyResult
	var sweep []PolicyResult
	for i, p := range results {
		switch p.Family {
		case FamilySingle:
			if best == nil || p.Accuracy > best.Accuracy {
				best = &results[i]
			}
		case FamilyRouter:
			sweep = append(sweep, p)
		}
	}
	if best == nil || len(sweep) == 0 {
		return nil
	}
	s := &SweepSummary{Router: "knn", BestSingle: best.Name, BestAcc: best.Accuracy, BestCost: best.CostUSD, Gain: math.Inf(-1)}
	matchCost := math.Inf(1)
	pts := make([]Point, 0, len(sweep))
	for _, p := range sweep {
		pts = append(pts, Point{CostUSD: p.CostUSD, Accuracy: p.Accuracy})
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
	s.Hull = upperHull(pts)
	s.AIQ = areaUnder(s.Hull)
	return s
}

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
