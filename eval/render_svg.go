package eval

import (
	"fmt"
	"html"
	"strings"
)

// Chart geometry, in SVG user units.
const (
	chartW, chartH = 760, 480
	padL, padR     = 70, 30
	padT, padB     = 20, 90 // the legend sits under the x axis
)

// familyColour gives each policy family its colour; routers take theirs
// from routerColours, one per swept router.
var (
	familyColour  = map[string]string{FamilySingle: "#4e79a7", FamilyBaseline: "#f28e2b", FamilyRouter: "#59a14f"}
	routerColours = []string{"#59a14f", "#b07aa1", "#e15759", "#76b7b2"}
)

// chartScale maps (cost, accuracy) to the plot area.
type chartScale struct {
	factor       float64 // USD → the cost unit shown
	x, y         axis
	plotW, plotH float64
}

// ChartSVG draws accuracy against cost: one point per policy, the Pareto
// frontier across policies and each router's convex hull, with a legend.
func (r *Report) ChartSVG() string {
	label, factor := r.CostScale()
	s := newChartScale(r, factor)
	colours := r.routerColours()
	legend, height := r.legend(colours)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="accuracy-cost" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %.0f" width="%d" height="%.0f" role="img" aria-label="accuracy versus cost">`,
		chartW, height, chartW, height)
	s.axes(&b, label)
	s.line(&b, "frontier", "#999", "6 4", r.Frontier())
	for _, sw := range r.Sweeps {
		s.line(&b, "hull", colours[sw.Router], "", s.clip(sw.Hull))
	}
	placed := newLabeller(s)
	for _, p := range r.Policies {
		placed.reservePoint(s.px(p.CostUSD), s.py(p.Accuracy))
	}
	labelled := r.labelled()
	for _, p := range r.Policies {
		colour := familyColour[p.Family]
		if c, ok := colours[routerOf(p.Name)]; ok && p.Family == FamilyRouter {
			colour = c
		}
		cx, cy := s.px(p.CostUSD), s.py(p.Accuracy)
		fmt.Fprintf(&b, `<g class="point" data-policy="%s"><circle cx="%.1f" cy="%.1f" r="5" fill="%s"/>`,
			html.EscapeString(p.Name), cx, cy, colour)
		fmt.Fprintf(&b, `<title>%s: accuracy %.3f, cost %.4f %s</title>`, html.EscapeString(p.Name), p.Accuracy, p.CostUSD*factor, label)
		if labelled[p.Name] {
			if x, y, anchor, ok := placed.place(cx, cy, p.Name); ok {
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s">%s</text>`, x, y, labelFont, anchor, html.EscapeString(p.Name))
			}
		}
		b.WriteString(`</g>`)
	}
	legend.draw(&b)
	b.WriteString(`</svg>`)
	return b.String()
}

func newChartScale(r *Report, factor float64) chartScale {
	xs, ys := []float64{}, []float64{}
	for _, p := range r.Policies {
		xs = append(xs, p.CostUSD*factor)
		ys = append(ys, p.Accuracy)
	}
	return chartScale{factor: factor, x: fitCostAxis(xs), y: niceAxis(ys, 0, 1),
		plotW: chartW - padL - padR, plotH: chartH - padT - padB}
}

func (s chartScale) px(costUSD float64) float64 {
	return padL + s.x.frac(costUSD*s.factor)*s.plotW
}

func (s chartScale) py(acc float64) float64 {
	return padT + (1-(acc-s.y.min)/(s.y.max-s.y.min))*s.plotH
}

// clip keeps the points inside the axes (a hull can reach past the
// policies shown, e.g. at grid weights not printed).
func (s chartScale) clip(pts []Point) []Point {
	var out []Point
	for _, p := range pts {
		c := p.CostUSD * s.factor
		if (c >= s.x.min || s.x.log) && c <= s.x.max && p.Accuracy >= s.y.min && p.Accuracy <= s.y.max {
			out = append(out, p)
		}
	}
	return out
}

// routerColours assigns each swept router its colour.
func (r *Report) routerColours() map[string]string {
	out := map[string]string{}
	for i, sw := range r.Sweeps {
		out[sw.Router] = routerColours[i%len(routerColours)]
	}
	return out
}

// routerOf is the router part of a "router@weight" policy name.
func routerOf(name string) string {
	router, _, _ := strings.Cut(name, "@")
	return router
}

// labelled names the points that get a text label: every policy except the
// router settings off their hull, which would crowd the chart (they keep
// their tooltip).
func (r *Report) labelled() map[string]bool {
	hull := map[Point]bool{}
	for _, sw := range r.Sweeps {
		for _, p := range sw.Hull {
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
	for _, c := range s.x.ticks() {
		x := x0 + s.x.frac(c)*s.plotW
		fmt.Fprintf(b, `<text class="xtick" x="%.1f" y="%.1f" font-size="11" text-anchor="middle">%s</text>`, x, y0+18, s.x.format(c))
	}
	for _, a := range s.y.ticks() {
		y := y0 - (a-s.y.min)/(s.y.max-s.y.min)*s.plotH
		fmt.Fprintf(b, `<text class="ytick" x="%.1f" y="%.1f" font-size="11" text-anchor="end">%s</text>`, x0-8, y+4, s.y.format(a))
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`, x0, y, x1, y)
	}
	if s.x.log {
		costLabel += ", log scale"
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="12" text-anchor="middle">cost (%s)</text>`, x0+s.plotW/2, y0+38, html.EscapeString(costLabel))
	fmt.Fprintf(b, `<text x="16" y="%.1f" font-size="12" text-anchor="middle" transform="rotate(-90 16 %.1f)">accuracy</text>`, y1+s.plotH/2, y1+s.plotH/2)
}

func (s chartScale) line(b *strings.Builder, class, colour, dash string, pts []Point) {
	if len(pts) < 2 {
		return
	}
	coords := make([]string, len(pts))
	for i, p := range pts {
		coords[i] = fmt.Sprintf("%.1f,%.1f", s.px(p.CostUSD), s.py(p.Accuracy))
	}
	fmt.Fprintf(b, `<polyline class="%s" fill="none" stroke="%s" stroke-width="1.5" stroke-dasharray="%s" points="%s"/>`,
		class, colour, dash, strings.Join(coords, " "))
}

// Legend geometry, in SVG user units: the first row's baseline sits
// legendTop above the chart's bottom edge, each further row legendRow
// lower, and the last at least legendMargin above the edge.
const (
	legendTop    = 22
	legendRow    = 16
	legendMargin = 6
)

// legendItem is one entry of the chart's legend: a line sample and its text,
// at its baseline origin.
type legendItem struct {
	colour, dash, text string
	x, y               float64
}

type chartLegend []legendItem

// legend lays out the entries explaining colours and lines under the x
// axis, wrapping to a new row where one would pass the right edge, and
// returns the chart height that holds every row: the chart grows below
// the plot when the legend needs more than its two rows.
func (r *Report) legend(colours map[string]string) (chartLegend, float64) {
	items := chartLegend{{colour: familyColour[FamilySingle], text: "single model"}, {colour: familyColour[FamilyBaseline], text: "baseline"}}
	for _, sw := range r.Sweeps {
		items = append(items, legendItem{colour: colours[sw.Router], text: sw.Router + " router (line: its convex hull)"})
	}
	items = append(items, legendItem{colour: "#999", dash: "6 4", text: "Pareto frontier: no policy is more accurate for less"})
	x, y := float64(padL), float64(chartH-legendTop)
	for i := range items {
		w := textWidth(items[i].text) + 34
		if x+w > chartW-padR && x > padL {
			x, y = padL, y+legendRow
		}
		items[i].x, items[i].y = x, y
		x += w
	}
	return items, max(chartH, y+legendMargin)
}

func (l chartLegend) draw(b *strings.Builder) {
	b.WriteString(`<g class="legend" font-size="11">`)
	for _, it := range l {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3" stroke-dasharray="%s"/><text x="%.1f" y="%.1f">%s</text>`,
			it.x, it.y-4, it.x+18, it.y-4, it.colour, it.dash, it.x+24, it.y, html.EscapeString(it.text))
	}
	b.WriteString(`</g>`)
}
