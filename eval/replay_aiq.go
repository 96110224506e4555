package eval

import "encoding/json"

// AIQGrid is the fixed set of cost weights the AIQ, APGR and CPT(50%) of a
// router are measured on, whatever --cost-weights asks to print: 0 to 0.3
// in steps of 0.005, then 0.35 to 1 in steps of 0.05 (75 weights). Fixing
// it makes those figures comparable across runs. Each weight is a
// division, not a product (0.05 × 12 is 0.6000000000000001), so it is
// the double nearest its decimal and names a policy as written: mf@0.6.
var AIQGrid = func() []float64 {
	var g []float64
	for i := 0; i <= 60; i++ {
		g = append(g, float64(i)/200)
	}
	for i := 7; i <= 20; i++ {
		g = append(g, float64(i)/20)
	}
	return g
}()

// AIQNote says how the fixed-grid figures are measured, for reports.
const AIQNote = "AIQ, APGR and CPT(50%) use a fixed grid (cost weights 0 to 0.3 step 0.005, then 0.35 to 1 step 0.05) " +
	"whatever --cost-weights prints: the router's points there plus the weak (cheapest) model's form a non-decreasing " +
	"upper convex hull; AIQ is its mean accuracy over costs from the weak to the strong (best on train) model's, flat " +
	"past its last point; APGR = (AIQ − weak)/(strong − weak) accuracy; CPT(50%) is the cost where the hull first " +
	"reaches half the strong model's gain over the weak one"

// MarshalJSON writes a point's cost in USD per 1,000 tasks.
func (p Point) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Cost     float64 `json:"cost_usd_per_1k"`
		Accuracy float64 `json:"accuracy"`
	}{per1k(p.CostUSD), p.Accuracy})
}

// gridMeasures fills s's fixed-grid figures from the router's points on
// AIQGrid and the strong and weak models' results.
func gridMeasures(s *SweepSummary, grid []Point, strong, weak PolicyResult) {
	s.Strong, s.StrongAcc, s.StrongCost = strong.Name, strong.Accuracy, per1k(strong.CostUSD)
	s.Weak, s.WeakAcc, s.WeakCost = weak.Name, weak.Accuracy, per1k(weak.CostUSD)
	s.Hull = upperHull(append(grid, Point{CostUSD: weak.CostUSD, Accuracy: weak.Accuracy}))
	s.AIQ = meanOver(s.Hull, weak.CostUSD, strong.CostUSD)
	s.AccAtHalf = hullAt(s.Hull, strong.CostUSD/2)
	if gap := strong.Accuracy - weak.Accuracy; gap > 0 {
		s.APGR = (s.AIQ - weak.Accuracy) / gap
		if c, ok := costToReach(s.Hull, weak.Accuracy+gap/2); ok {
			c1k := per1k(c)
			share := c / strong.CostUSD
			s.CPT50, s.CPT50Share = &c1k, &share
		}
	}
}

// hullAt is the hull's accuracy at cost c: interpolated between its points,
// flat after its last one, and its first point's before that.
func hullAt(hull []Point, c float64) float64 {
	if c <= hull[0].CostUSD {
		return hull[0].Accuracy
	}
	for i := 1; i < len(hull); i++ {
		if c <= hull[i].CostUSD {
			a, b := hull[i-1], hull[i]
			return a.Accuracy + (b.Accuracy-a.Accuracy)*(c-a.CostUSD)/(b.CostUSD-a.CostUSD)
		}
	}
	return hull[len(hull)-1].Accuracy
}

// meanOver is the mean of hullAt over [lo, hi], exactly (the hull is
// piecewise linear); a degenerate range gives the value at hi.
func meanOver(hull []Point, lo, hi float64) float64 {
	if len(hull) == 0 {
		return 0
	}
	if hi <= lo {
		return hullAt(hull, hi)
	}
	knots := []float64{lo}
	for _, p := range hull {
		if p.CostUSD > lo && p.CostUSD < hi {
			knots = append(knots, p.CostUSD)
		}
	}
	knots = append(knots, hi)
	area := 0.0
	for i := 1; i < len(knots); i++ {
		area += (knots[i] - knots[i-1]) * (hullAt(hull, knots[i]) + hullAt(hull, knots[i-1])) / 2
	}
	return area / (hi - lo)
}

// costToReach is the least cost at which the hull reaches accuracy target.
func costToReach(hull []Point, target float64) (float64, bool) {
	if len(hull) == 0 || hull[len(hull)-1].Accuracy < target {
		return 0, false
	}
	if hull[0].Accuracy >= target {
		return hull[0].CostUSD, true
	}
	for i := 1; i < len(hull); i++ {
		a, b := hull[i-1], hull[i]
		if b.Accuracy >= target {
			return a.CostUSD + (b.CostUSD-a.CostUSD)*(target-a.Accuracy)/(b.Accuracy-a.Accuracy), true
		}
	}
	return 0, false
}
