package eval

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEvalChooseRouter(t *testing.T) {
	sweep := func(router string, acc, share, high float64) *SweepSummary {
		return &SweepSummary{Router: router, Operating: &OperatingPoint{Policy: router + "@w", CVAccuracy: acc, CVShare: share, CVShareHigh: high}}
	}
	cases := []struct {
		name   string
		sweeps []*SweepSummary
		want   string
	}{
		{"none has an operating point", []*SweepSummary{{Router: "knn"}}, ""},
		{"the most accurate within the budget", []*SweepSummary{sweep("knn", 0.60, 0.4, 0.45), sweep("mf", 0.62, 0.4, 0.48), sweep("lr", 0.61, 0.3, 0.4)}, "mf@w"},
		{"within the budget beats more accurate beyond it", []*SweepSummary{sweep("knn", 0.70, 0.45, 0.55), sweep("mf", 0.60, 0.4, 0.5)}, "mf@w"},
		{"all beyond the budget: the most accurate", []*SweepSummary{sweep("knn", 0.58, 0.6, 0.7), sweep("mf", 0.59, 0.7, 0.8)}, "mf@w"},
		{"a tie goes to the cheaper", []*SweepSummary{sweep("knn", 0.6, 0.45, 0.49), sweep("mf", 0.6, 0.35, 0.49), {Router: "lr"}}, "mf@w"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ""
			if s := chooseRouter(tc.sweeps); s != nil {
				got = s.Operating.Policy
			}
			if got != tc.want {
				t.Fatalf("chose %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEvalReplayNamesTheChosenOperatingPoint: a replay of several routers
// names one of their operating points, in JSON, text and HTML.
func TestEvalReplayNamesTheChosenOperatingPoint(t *testing.T) {
	rep, err := Replay(syntheticSet(t), ReplayOptions{Policies: append([]string{SinglesName}, RouterNames...), CostWeights: []float64{0, 0.2}})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.ChosenSweep()
	if s == nil {
		t.Fatalf("no chosen operating point among %d sweeps", len(rep.Sweeps))
	}
	for _, o := range rep.Sweeps {
		if o.Operating != nil && betterOperating(o.Operating, s.Operating) {
			t.Fatalf("chose %s over the better %s", rep.Chosen, o.Operating.Policy)
		}
	}
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var text, page bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, out, want string }{
		{"json", string(data), `"chosen_operating_point":"` + rep.Chosen + `"`},
		{"text", text.String(), "chosen on train out of fold, among the routers: " + rep.Chosen},
		{"html", page.String(), `<p id="chosen">Chosen on train, out of fold, among the routers' operating points: <code>` + rep.Chosen},
	}
	for _, tc := range cases {
		if !strings.Contains(tc.out, tc.want) {
			t.Errorf("%s output lacks %q", tc.name, tc.want)
		}
	}
}
