package eval

import (
	"math"
	"testing"
)

func TestEvalReportUpperHullAndAIQ(t *testing.T) {
	pts := []Point{{1, 0.5}, {2, 0.55}, {3, 0.7}, {4, 0.65}, {5, 0.72}}
	// (2, 0.55) lies below the chord from (1, 0.5) to (3, 0.7); (4, 0.65) is
	// lower than a cheaper point.
	want := []Point{{1, 0.5}, {3, 0.7}, {5, 0.72}}
	hull := upperHull(pts)
	if len(hull) != len(want) {
		t.Fatalf("hull %v, want %v", hull, want)
	}
	for i := range want {
		if hull[i] != want[i] {
			t.Fatalf("hull %v, want %v", hull, want)
		}
	}
	// Area: 2 × (0.5+0.7)/2 + 2 × (0.7+0.72)/2 = 1.2 + 1.42 = 2.62 over width 4.
	if got := areaUnder(hull); math.Abs(got-2.62/4) > 1e-12 {
		t.Fatalf("AIQ %v, want %v", got, 2.62/4)
	}
	if got := areaUnder([]Point{{2, 0.6}}); got != 0.6 {
		t.Fatalf("one point's AIQ %v", got)
	}
}

func TestEvalReportFrontierAndSweepSummary(t *testing.T) {
	w0, w1 := 0.0, 1.0
	results := []PolicyResult{
		{Name: "fixed:big", Family: FamilySingle, Accuracy: 0.6, CostUSD: 0.3},
		{Name: "fixed:small", Family: FamilySingle, Accuracy: 0.5, CostUSD: 0.05},
		{Name: "fixed:bad", Family: FamilySingle, Accuracy: 0.4, CostUSD: 0.1},
		{Name: OracleName, Family: FamilyBaseline, Accuracy: 0.9, CostUSD: 0.01},
		{Name: "knn@0", Family: FamilyRouter, CostWeight: &w0, Accuracy: 0.6, CostUSD: 0.12},
		{Name: "knn@1", Family: FamilyRouter, CostWeight: &w1, Accuracy: 0.52, CostUSD: 0.06},
	}
	markFrontier(results)
	on := map[string]bool{}
	for _, r := range results {
		on[r.Name] = r.OnFrontier
	}
	want := map[string]bool{"fixed:big": false, "fixed:small": true, "fixed:bad": false, OracleName: false, "knn@0": true, "knn@1": true}
	for name, w := range want {
		if on[name] != w {
			t.Errorf("%s on frontier: %v, want %v", name, on[name], w)
		}
	}
	s := summariseSweep(results, "knn")
	if s.BestSingle != "fixed:big" || s.Matching != "knn@0" || math.Abs(s.Saving-0.6) > 1e-12 || math.Abs(s.Gain) > 1e-12 {
		t.Fatalf("summary %+v", s)
	}
}
