package eval

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestEvalChartCostAxisGoesLogOverAWideSpread(t *testing.T) {
	cases := []struct {
		name      string
		values    []float64
		wantLog   bool
		wantTicks string
	}{
		{"the shared set's spread stays linear", []float64{0.0335, 0.301, 0.079, 0.2414}, false, "[0 0.05 0.1 0.15 0.2 0.25 0.3 0.35]"},
		{"four decades: the powers of ten", []float64{0.017, 0.5, 1.8, 25}, true, "[0.01 0.1 1 10 100]"},
		{"two decades: 1, 2 and 5 of each", []float64{0.03, 0.4, 2.5}, true, "[0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10]"},
		{"a free model beside a 100× spread", []float64{0, 0.02, 2}, true, "[0.01 0.02 0.05 0.1 0.2 0.5 1 2 5 10]"},
		{"just under the spread", []float64{0.1, 4.9}, false, "[0 1 2 3 4 5]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := fitCostAxis(tc.values)
			if a.log != tc.wantLog {
				t.Fatalf("log = %v, want %v (axis %+v)", a.log, tc.wantLog, a)
			}
			if got := shownTicks(t, a); got != tc.wantTicks {
				t.Fatalf("ticks %s, want %s", got, tc.wantTicks)
			}
			prev := -1.0
			for _, v := range slices.Sorted(slices.Values(tc.values)) {
				f := a.frac(v)
				if f < 0 || f > 1 {
					t.Errorf("%v sits at %v, outside the axis %+v", v, f, a)
				}
				if f < prev {
					t.Errorf("%v sits at %v, before the smaller value's %v", v, f, prev)
				}
				prev = f
			}
		})
	}
}

// TestEvalChartDrawsAWideSpreadOnALogAxis: a report whose costs span four
// decades is drawn with every point inside the plot, spread over it, and
// the axis says it is logarithmic.
func TestEvalChartDrawsAWideSpreadOnALogAxis(t *testing.T) {
	rep := &Report{Kind: "replay", Tasks: 10}
	for i, c := range []float64{0.017e-3, 0.05e-3, 0.5e-3, 1.8e-3, 25e-3} {
		rep.Policies = append(rep.Policies, PolicyResult{Name: fmt.Sprintf("fixed:m%d", i), Family: FamilySingle, Tasks: 10,
			Accuracy: 0.5 + float64(i)*0.08, CostUSD: c})
	}
	markFrontier(rep.Policies)
	rep.finish()
	svg := rep.ChartSVG()
	if !strings.Contains(svg, "log scale") {
		t.Fatal("the cost axis does not say it is logarithmic")
	}
	var xs []float64
	for _, m := range regexp.MustCompile(`<circle cx="([0-9.]+)"`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		if x < padL || x > chartW-padR {
			t.Errorf("a point at x %v is outside the plot", x)
		}
		xs = append(xs, x)
	}
	if len(xs) != 5 {
		t.Fatalf("%d points drawn, want 5", len(xs))
	}
	// Linear, the first three would sit within 2% of the plot's width.
	if gap := xs[2] - xs[0]; gap < (chartW-padL-padR)/5 {
		t.Errorf("the three cheapest points span %.1f units of %d", gap, chartW-padL-padR)
	}
}
