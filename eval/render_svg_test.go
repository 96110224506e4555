package eval

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// withRouters is the sample report with n swept routers, each with a point.
func withRouters(n int) *Report {
	rep := sampleReport()
	rep.Sweeps = nil
	rep.Policies = rep.Policies[:2]
	for i, name := range []string{KNNName, LogRegName, BlendName, MFName, "r5", "r6"}[:n] {
		w := 0.0
		rep.Policies = append(rep.Policies, PolicyResult{Name: name + "@0", Family: FamilyRouter, CostWeight: &w, Tasks: 10,
			Accuracy: 0.55 + float64(i)*0.01, CostUSD: 0.0001 + float64(i)*1e-5})
		rep.Sweeps = append(rep.Sweeps, &SweepSummary{Router: name})
	}
	markFrontier(rep.Policies)
	rep.finish()
	return rep
}

// svgTextYs parses an SVG: its viewBox height and the y of every text.
func svgTextYs(t *testing.T, svg string) (height float64, ys map[string]float64) {
	t.Helper()
	ys = map[string]float64{}
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return height, ys
		}
		if err != nil {
			t.Fatalf("the chart is not well-formed XML: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attrs := map[string]string{}
		for _, a := range el.Attr {
			attrs[a.Name.Local] = a.Value
		}
		switch el.Name.Local {
		case "svg":
			box := strings.Fields(attrs["viewBox"])
			if len(box) != 4 || box[3] != attrs["height"] {
				t.Fatalf("viewBox %q, height %q", attrs["viewBox"], attrs["height"])
			}
			height, _ = strconv.ParseFloat(box[3], 64)
		case "text":
			var text string
			if err := dec.DecodeElement(&text, &el); err != nil {
				t.Fatal(err)
			}
			y, err := strconv.ParseFloat(attrs["y"], 64)
			if err != nil {
				t.Fatalf("text %q: y %q", text, attrs["y"])
			}
			ys[fmt.Sprintf("%s (%d)", text, len(ys))] = y
		}
	}
}

func TestEvalChartTextStaysInsideTheViewBox(t *testing.T) {
	cases := []struct {
		name    string
		routers int
		height  float64 // the chart's height: chartH until the legend needs a third row
	}{
		{"no router: one legend row", 0, chartH},
		{"one router: two rows", 1, chartH},
		{"four routers: the legend wraps to a third row", 4, chartH + legendRow},
		{"six routers: four rows", 6, chartH + 2*legendRow},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			height, ys := svgTextYs(t, withRouters(tc.routers).ChartSVG())
			if height != tc.height {
				t.Errorf("height %v, want %v", height, tc.height)
			}
			legend := 0
			for text, y := range ys {
				if y <= 0 || y > height {
					t.Errorf("%q at y %v is outside the viewBox (height %v)", text, y, height)
				}
				if strings.Contains(text, "router (line") {
					legend++
				}
			}
			if legend != tc.routers {
				t.Errorf("%d routers in the legend, want %d", legend, tc.routers)
			}
		})
	}
}
