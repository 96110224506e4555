package eval

// Label geometry, in SVG user units: a character of the label font is
// about 0.6 em wide.
const (
	labelFont   = 10
	labelHeight = 12
	pointRadius = 6
)

// box is an axis-aligned rectangle.
type box struct{ x0, y0, x1, y1 float64 }

func (a box) overlaps(b box) bool {
	return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

func textWidth(s string) float64 { return 0.6 * labelFont * float64(len([]rune(s))) }

// labeller places point labels so no two overlap and none covers a point:
// each label tries spots around its point in turn; one that fits nowhere is
// left out (its point keeps the tooltip).
type labeller struct {
	plot  box
	taken []box
}

func newLabeller(s chartScale) *labeller {
	l := &labeller{plot: box{padL, padT, padL + s.plotW, padT + s.plotH}}
	return l
}

// reservePoint keeps labels off a point.
func (l *labeller) reservePoint(cx, cy float64) {
	l.taken = append(l.taken, box{cx - pointRadius, cy - pointRadius, cx + pointRadius, cy + pointRadius})
}

// place finds a free spot for text next to (cx, cy) and returns its
// baseline origin and anchor.
func (l *labeller) place(cx, cy float64, text string) (x, y float64, anchor string, ok bool) {
	w := textWidth(text)
	type spot struct {
		b      box
		x, y   float64
		anchor string
	}
	spots := []spot{
		{box{cx + 7, cy - 6 - labelHeight, cx + 7 + w, cy - 6}, cx + 7, cy - 8, "start"},
		{box{cx + 7, cy + 4, cx + 7 + w, cy + 4 + labelHeight}, cx + 7, cy + 14, "start"},
		{box{cx - 7 - w, cy - 6 - labelHeight, cx - 7, cy - 6}, cx - 7, cy - 8, "end"},
		{box{cx - 7 - w, cy + 4, cx - 7, cy + 4 + labelHeight}, cx - 7, cy + 14, "end"},
		{box{cx + 9, cy - labelHeight/2, cx + 9 + w, cy + labelHeight/2}, cx + 9, cy + 4, "start"},
		{box{cx - 9 - w, cy - labelHeight/2, cx - 9, cy + labelHeight/2}, cx - 9, cy + 4, "end"},
	}
	for _, s := range spots {
		if !l.fits(s.b) {
			continue
		}
		l.taken = append(l.taken, s.b)
		return s.x, s.y, s.anchor, true
	}
	return 0, 0, "", false
}

func (l *labeller) fits(b box) bool {
	if b.x0 < l.plot.x0 || b.x1 > l.plot.x1+padR || b.y0 < 0 || b.y1 > l.plot.y1 {
		return false
	}
	for _, t := range l.taken {
		if t.overlaps(b) {
			return false
		}
	}
	return true
}
