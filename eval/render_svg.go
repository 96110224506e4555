package eval

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 720, 440
	padL, padR     = 70, 30
	padT, padB     = 20, 60
)

// familyColour gives each policy family its colour.
var familyColour = map[string]string{FamilySingle: "#4e79a7", FamilyBaseline: "#f28e2b", FamilyRouter: "#59a14f"}

// chartScale maps (cost, accuracy) to the plot area.
type chartScale struct {
	factor       float64 // USD → the cost unit shown
	xMin, xMax   float64
	yMin, yMax   float64
	plotW, plotH float64
}

func newChartScale(r *Report, factor float64) chartScale {
	s := chartScale{factor: factor, xMin: 0, xMax: 0, yMin: 1, yMax: 0}
	for _, p := range r.Policies {
		s.xMax = max(s.xMax, p.CostUSD*factor)
		s.yMin, s.yMax = min(s.yMin, p.Accuracy), max(s.yMax, p.Accuracy)
	}
	s.xMax = niceCeil(s.xMax)
	s.yMin = math.Max(0, math.Floor(s.yMin*10)/10)
	s.yMax = math.Min(1, math.Ceil(s.yMax*10)/10)
	if s.yMax <= s.yMin {
		s.yMin, s.yMax = 0, 1
	}
	s.plotW, s.plotH = chartW-padL-padR, chartH-padT-padB
	return s
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func (s chartScale) x(costUSD float64) float64 {
	return padL + (costUSD*s.factor-s.xMin)/(s.xMax-s.xMin)*s.plotW
}

func (s chartScale) y(acc float64) float64 {
	return padT + (1-(acc-s.yMin)/(s.yMax-s.yMin))*s.plotH
}

// ChartSVG draws accuracy against cost: one point per policy, the Pareto
// frontier across policies and, for a router sweep, its convex hull.
func (r *Report) ChartSVG() string {
	label, factor := r.CostScale()
	s := newChartScale(r, factor)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="accuracy-cost" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-label="accuracy versus cost">`,
		chartW, chartH, chartW, chartH)
	s.axes(&b, label)
	s.line(&b, "frontier", "#999", "6 4", r.Frontier())
	if r.Sweep != nil {
		s.line(&b, "hull", familyColour[FamilyRouter], "", r.Sweep.Hull)
	}
	labelled := r.labelled()
	for _, p := range r.Policies {
		colour := familyColour[p.Family]
		cx, cy := s.x(p.CostUSD), s.y(p.Accuracy)
		fmt.Fprintf(&b, `<g class="point" data-policy="%s"><circle cx="%.1f" cy="%.1f" r="5" fill="%s"/>`,
			html.EscapeString(p.Name), cx, cy, colour)
		fmt.Fprintf(&b, `<title>%s: accuracy %.3f, cost %.4f %s</title>`, html.EscapeString(p.Name), p.Accuracy, p.CostUSD*factor, label)
		if labelled[p.Name] {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10">%s</text>`, cx+7, cy-6, html.EscapeString(p.Name))
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// labelled names the points that get a text label: every policy except the
// router settings off its hull, which would crowd the chart (they keep their
// tooltip).
func (r *Report) labelled() map[string]bool {
	hull := map[Point]bool{}
	if r.Sweep != nil {
		for _, p := range r.Sweep.Hull {
			hull[p] = true
		}
	}
	out := map[string]bool{}
	for _, p := range r.Policies {
		out[p.Name] = p.Family != FamilyRouter || hull[Point{CostUSD: p.CostUSD, Accuracy: p.Accuracy}]
	}
	return out
}

func (s chartScale) axes(b *strings.Builder, costLabel string) {
	x0, y0, x1, y1 := float64(padL), float64(padT)+s.plotH, float64(padL)+s.plotW, float64(padT)
	fmt.Fprintf(b, `<g class="axes" stroke="#333"><line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/><line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f"/></g>`,
		x0, y0, x1, y0, x0, y0, x0, y1)
	for i := 0; i <= 5; i++ {
		c := s.xMin + (s.xMax-s.xMin)*float64(i)/5
		x := x0 + s.plotW*float64(i)/5
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="11" text-anchor="middle">%s</text>`, x, y0+18, trimFloat(c))
		a := s.yMin + (s.yMax-s.yMin)*float64(i)/5
		y := y0 - s.plotH*float64(i)/5
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="11" text-anchor="end">%.2f</text>`, x0-8, y+4, a)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`, x0, y, x1, y)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%d" font-size="12" text-anchor="middle">cost (%s)</text>`, x0+s.plotW/2, chartH-15, html.EscapeString(costLabel))
	fmt.Fprintf(b, `<text x="16" y="%.1f" font-size="12" text-anchor="middle" transform="rotate(-90 16 %.1f)">accuracy</text>`, y1+s.plotH/2, y1+s.plotH/2)
}

func (s chartScale) line(b *strings.Builder, class, colour, dash string, pts []Point) {
	if len(pts) < 2 {
		return
	}
	coords := make([]string, len(pts))
	for i, p := range pts {
		coords[i] = fmt.Sprintf("%.1f,%.1f", s.x(p.CostUSD), s.y(p.Accuracy))
	}
	fmt.Fprintf(b, `<polyline class="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="%s" points="%s"/>`,
		class, colour, dash, strings.Join(coords, " "))
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}
