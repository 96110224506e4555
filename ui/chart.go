package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Bar is one bar of a chart.
type Bar struct {
	Label string  // under or beside the bar
	Value float64 // bar length relative to the largest
	Text  string  // the value as shown
}

// BarChart draws bars: columns when Vertical (spend per day), rows
// otherwise (calls per tool).
type BarChart struct {
	widget.BaseWidget
	Title    string
	Vertical bool
	Bars     []Bar
	Color    color.Color
}

// NewBarChart returns an empty chart.
func NewBarChart(title string, vertical bool, c color.Color) *BarChart {
	ch := &BarChart{Title: title, Vertical: vertical, Color: c}
	ch.ExtendBaseWidget(ch)
	return ch
}

// SetBars replaces the bars and redraws.
func (c *BarChart) SetBars(bars []Bar) {
	c.Bars = bars
	c.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (c *BarChart) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{chart: c, title: canvas.NewText(c.Title, theme.Color(theme.ColorNameForeground))}
	r.title.TextStyle.Bold = true
	r.Refresh()
	return r
}

type chartRenderer struct {
	chart   *BarChart
	title   *canvas.Text
	rects   []*canvas.Rectangle
	labels  []*canvas.Text
	values  []*canvas.Text
	objects []fyne.CanvasObject
}

func (r *chartRenderer) Destroy() {}

func (r *chartRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *chartRenderer) MinSize() fyne.Size {
	if r.chart.Vertical {
		return fyne.NewSize(240, 180)
	}
	return fyne.NewSize(240, float32(28+22*len(r.chart.Bars)))
}

// Refresh rebuilds the drawing objects from the bars.
func (r *chartRenderer) Refresh() {
	fg := theme.Color(theme.ColorNameForeground)
	r.title.Text, r.title.Color = r.chart.Title, fg
	r.rects, r.labels, r.values = nil, nil, nil
	r.objects = []fyne.CanvasObject{r.title}
	for _, b := range r.chart.Bars {
		rect := canvas.NewRectangle(r.chart.Color)
		label := canvas.NewText(b.Label, fg)
		label.TextSize = theme.CaptionTextSize()
		value := canvas.NewText(b.Text, fg)
		value.TextSize = theme.CaptionTextSize()
		r.rects, r.labels, r.values = append(r.rects, rect), append(r.labels, label), append(r.values, value)
		r.objects = append(r.objects, rect, label, value)
	}
	if len(r.chart.Bars) == 0 {
		empty := canvas.NewText("no data yet", theme.Color(theme.ColorNameDisabled))
		r.objects = append(r.objects, empty)
		empty.Move(fyne.NewPos(8, 28))
	}
	r.Layout(r.chart.Size())
	canvas.Refresh(r.chart)
}

func (r *chartRenderer) Layout(size fyne.Size) {
	r.title.Move(fyne.NewPos(0, 0))
	if r.chart.Vertical {
		r.layoutColumns(size)
		return
	}
	r.layoutRows(size)
}

func (r *chartRenderer) maxValue() float64 {
	max := 0.0
	for _, b := range r.chart.Bars {
		if b.Value > max {
			max = b.Value
		}
	}
	return max
}

func (r *chartRenderer) layoutRows(size fyne.Size) {
	const top, rowH, labelW, valueW = 26, 22, 150, 70
	max := r.maxValue()
	barSpace := size.Width - labelW - valueW
	for i, b := range r.chart.Bars {
		y := float32(top + i*rowH)
		w := float32(0)
		if max > 0 {
			w = barSpace * float32(b.Value/max)
		}
		r.labels[i].Text = shorten(b.Label, 22)
		r.labels[i].Move(fyne.NewPos(0, y+2))
		r.rects[i].Move(fyne.NewPos(labelW, y+3))
		r.rects[i].Resize(fyne.NewSize(w, rowH-6))
		r.values[i].Move(fyne.NewPos(labelW+w+6, y+2))
	}
}

func (r *chartRenderer) layoutColumns(size fyne.Size) {
	const top, bottom = 26, 36
	n := len(r.chart.Bars)
	if n == 0 {
		return
	}
	max := r.maxValue()
	slot := size.Width / float32(n)
	barW := min(slot*0.6, 56)
	height := size.Height - top - bottom
	for i, b := range r.chart.Bars {
		h := float32(0)
		if max > 0 {
			h = height * float32(b.Value/max)
		}
		x := slot*float32(i) + (slot-barW)/2
		r.rects[i].Move(fyne.NewPos(x, top+height-h))
		r.rects[i].Resize(fyne.NewSize(barW, h))
		r.values[i].Move(fyne.NewPos(x, top+height-h-16))
		r.labels[i].Move(fyne.NewPos(x, top+height+4))
	}
}
