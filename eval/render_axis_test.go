package eval

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// shownTicks are an axis's ticks as the chart prints them, read back.
func shownTicks(t *testing.T, a axis) string {
	t.Helper()
	var shown []float64
	for _, v := range a.ticks() {
		f, err := strconv.ParseFloat(a.format(v), 64)
		if err != nil {
			t.Fatal(err)
		}
		shown = append(shown, f)
	}
	return fmt.Sprint(shown)
}

func TestEvalChartAxesHaveNiceTicksFittedToTheData(t *testing.T) {
	cases := []struct {
		name      string
		values    []float64
		lo, hi    float64
		wantTicks string
	}{
		{"costs per 1k", []float64{0.0335, 0.301, 0.079, 0.2414}, 0, math.Inf(1), "[0 0.05 0.1 0.15 0.2 0.25 0.3 0.35]"},
		{"accuracies", []float64{0.165, 0.75}, 0, 1, "[0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8]"},
		{"narrow", []float64{0.52, 0.61}, 0, 1, "[0.52 0.54 0.56 0.58 0.6 0.62]"},
		{"one value", []float64{2}, 0, math.Inf(1), "[1.8 1.9 2 2.1 2.2]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := niceAxis(tc.values, tc.lo, tc.hi)
			if got := shownTicks(t, a); got != tc.wantTicks {
				t.Fatalf("ticks %s, want %s", got, tc.wantTicks)
			}
			m := a.step / math.Pow(10, math.Floor(math.Log10(a.step)))
			if math.Abs(m-1) > 1e-9 && math.Abs(m-2) > 1e-9 && math.Abs(m-5) > 1e-9 {
				t.Fatalf("step %v is not 1, 2 or 5 times a power of ten", a.step)
			}
			for _, v := range tc.values {
				if v < a.min || v > a.max || v-a.min > (a.max-a.min) || a.max-a.min > 10*a.step {
					t.Fatalf("axis [%v, %v] does not fit %v", a.min, a.max, tc.values)
				}
			}
		})
	}
}

func TestEvalChartLabelsDoNotOverlap(t *testing.T) {
	rep := sampleReport()
	// Pile several singles onto nearly the same spot.
	for i := range 6 {
		rep.Policies = append(rep.Policies, PolicyResult{Name: fmt.Sprintf("fixed:clone-%d", i), Family: FamilySingle,
			Accuracy: 0.5 + float64(i)*0.001, CostUSD: 0.00005 + float64(i)*1e-7})
	}
	svg := rep.ChartSVG()
	re := regexp.MustCompile(`<text x="([0-9.]+)" y="([0-9.]+)" font-size="10" text-anchor="(start|end)">([^<]+)</text>`)
	var boxes []box
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		w := textWidth(m[4])
		b := box{x, y - labelHeight + 2, x + w, y + 2}
		if m[3] == "end" {
			b.x0, b.x1 = x-w, x
		}
		for _, o := range boxes {
			if o.overlaps(b) {
				t.Fatalf("label %q at %v overlaps another at %v", m[4], b, o)
			}
		}
		boxes = append(boxes, b)
	}
	if len(boxes) < 4 {
		t.Fatalf("only %d labels placed", len(boxes))
	}
	for _, want := range []string{`class="legend"`, "Pareto frontier", "knn router"} {
		if !regexp.MustCompile(regexp.QuoteMeta(want)).MatchString(svg) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

func TestEvalReportKeepsOneCostUnitAndNamesItInJSON(t *testing.T) {
	rep := sampleReport()
	rep.Policies[0].CostUSD = 0.05 // five cents a task: still USD per 1,000 tasks
	rep.finish()
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "COST (USD/1k tasks)") || !strings.Contains(b.String(), "50.0000") || strings.Contains(b.String(), "cents") {
		t.Fatalf("text report:\n%s", b.String())
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"cost_usd_per_1k":50`) || strings.Contains(string(data), `"cost_usd":`) {
		t.Fatalf("JSON without the unit in its cost fields: %s", data)
	}
}
