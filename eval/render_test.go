package eval

import (
	"bytes"
	"context"
	"flag"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sampleReport is a small report with every part filled in.
func sampleReport() *Report {
	w0, w1 := 0.0, 0.5
	r := &Report{Kind: "replay", Source: "testdata", Tasks: 10, Base: "cheapest", Preference: DefaultPreference,
		Notes: []string{"a note"}, Command: "toolhub eval --replay=testdata",
		Policies: []PolicyResult{
			{Name: "fixed:big", Family: FamilySingle, Tasks: 10, Accuracy: 0.6, CostUSD: 0.0003, LatencyS: 13, Reward: 0.7, Calls: map[string]float64{"big": 1}},
			{Name: "cheapest", Family: FamilyBaseline, Tasks: 10, Accuracy: 0.5, CostUSD: 0.00005, LatencyS: 9, Reward: 0.6, Calls: map[string]float64{"small": 1}},
			{Name: "knn@0", Family: FamilyRouter, CostWeight: &w0, Tasks: 10, Accuracy: 0.62, CostUSD: 0.0002, LatencyS: 12, Reward: 0.72, Calls: map[string]float64{"big": 0.7, "small": 0.3}},
			{Name: "knn@0.5", Family: FamilyRouter, CostWeight: &w1, Tasks: 10, Accuracy: 0.55, CostUSD: 0.0001, LatencyS: 10, Reward: 0.66, Calls: map[string]float64{"big": 0.2, "small": 0.8}},
		}}
	markFrontier(r.Policies)
	s := summariseSweep(r.Policies, "knn")
	grid := []Point{{CostUSD: 0.0002, Accuracy: 0.62}, {CostUSD: 0.0001, Accuracy: 0.55}, {CostUSD: 0.00015, Accuracy: 0.57}}
	gridMeasures(s, grid, r.Policies[0], r.Policies[1])
	s.Operating = &OperatingPoint{Policy: "knn@0.5", Weight: 0.5, CVTarget: 0.58, Reached: true,
		CVAccuracy: 0.59, CVShare: 0.4, CVShareHigh: 0.45, Accuracy: 0.55, Cost: 0.1}
	r.Sweeps = []*SweepSummary{s}
	r.setChosen()
	r.finish()
	return r
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs (run with -update after checking):\n%s", name, got)
	}
}

func TestEvalReportText(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "report.golden.txt", b.Bytes())
}

func TestEvalReportTextCountsOneTask(t *testing.T) {
	r := sampleReport()
	r.Tasks = 1
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if first, _, _ := strings.Cut(b.String(), "\n"); !strings.Contains(first, ": 1 task;") {
		t.Errorf("first line %q, want it to count 1 task", first)
	}
}

// TestEvalReportHTMLRendersInChromium opens the page in headless Chromium
// and checks the rendered DOM holds the chart with one point per policy.
func TestEvalReportHTMLRendersInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium; skipped under -short")
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("chromium is missing (apt-get install chromium): %v", err)
	}
	rep := sampleReport()
	page := filepath.Join(t.TempDir(), "report.html")
	var html bytes.Buffer
	if err := rep.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html.String(), "<script") || strings.Contains(html.String(), "http://cdn") {
		t.Fatal("the page must be self-contained")
	}
	if err := os.WriteFile(page, html.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
		"--user-data-dir="+t.TempDir(), "--dump-dom", "file://"+page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	svg := regexp.MustCompile(`(?s)<svg id="accuracy-cost".*?</svg>`).Find(dom)
	if svg == nil {
		t.Fatalf("no chart in the rendered DOM:\n%s", dom)
	}
	points := regexp.MustCompile(`<g class="point" data-policy="([^"]+)"`).FindAllSubmatch(svg, -1)
	if len(points) != len(rep.Policies) {
		t.Fatalf("%d points in the chart, want %d", len(points), len(rep.Policies))
	}
	for _, cls := range []string{`class="frontier"`, `class="hull"`, "<circle"} {
		if !bytes.Contains(svg, []byte(cls)) {
			t.Errorf("chart lacks %s", cls)
		}
	}
	if !bytes.Contains(dom, []byte(`<table id="tool-use">`)) {
		t.Error("no tool-use table in the rendered DOM")
	}
}

func TestLatencyText(t *testing.T) {
	cases := []struct {
		name string
		p    PolicyResult
		want string
	}{
		{"known", PolicyResult{Tasks: 3, LatencyS: 9.125}, "9.12"},
		{"some unknown: the mean of the known", PolicyResult{Tasks: 3, LatencyUnknown: 2, LatencyS: 4}, "4.00"},
		{"none known", PolicyResult{Tasks: 3, LatencyUnknown: 3}, "-"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.LatencyText(); got != tc.want {
				t.Fatalf("%q, want %q", got, tc.want)
			}
		})
	}
}

// TestEvalReportHTMLGivesEveryCostItsUnit: the HTML prints costs with four
// decimals (accuracies have three); outside the results table, whose
// header names the unit, each such figure is followed by it.
func TestEvalReportHTMLGivesEveryCostItsUnit(t *testing.T) {
	var b bytes.Buffer
	if err := sampleReport().WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	label, _ := sampleReport().CostScale()
	page := html.UnescapeString(b.String())
	cases := []struct {
		name  string
		part  *regexp.Regexp
		costs int // at least
	}{
		{"router sweep", regexp.MustCompile(`(?s)<h2>Router sweep: knn</h2>.*?</p>`), 3},
		{"chart tooltips", regexp.MustCompile(`<title>.*?</title>`), 4},
	}
	figure := regexp.MustCompile(`\d+\.\d{4}`)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Join(tc.part.FindAllString(page, -1), "\n")
			costs := figure.FindAllStringIndex(text, -1)
			if len(costs) < tc.costs {
				t.Fatalf("%d costs, want %d or more, in %q", len(costs), tc.costs, text)
			}
			for _, c := range costs {
				if !strings.HasPrefix(text[c[1]:], " "+label) {
					t.Errorf("cost %s without %q: %q", text[c[0]:c[1]], label, text[c[0]:min(len(text), c[1]+20)])
				}
			}
		})
	}
}
