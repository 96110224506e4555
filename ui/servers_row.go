package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ServerRow is one server or model: a coloured state dot, its figures,
// enable and restart controls, and its last error with the stderr tail.
type ServerRow struct {
	Dot     *canvas.Circle
	Title   *widget.Label
	Figures *widget.Label
	Enabled *widget.Check
	Restart *widget.Button
	Problem *widget.Label

	info     ServerInfo
	updating bool
	tab      *ServersTab
	object   fyne.CanvasObject
}

func newServerRow(t *ServersTab) *ServerRow {
	r := &ServerRow{Dot: canvas.NewCircle(healthColor(HealthUnknown)), Title: widget.NewLabel(""),
		Figures: widget.NewLabel(""), Problem: widget.NewLabel(""), tab: t}
	r.Title.TextStyle.Bold = true
	r.Problem.Wrapping = fyne.TextWrapWord
	r.Problem.TextStyle.Monospace = true
	r.Enabled = widget.NewCheck("enabled", r.toggle)
	r.Restart = widget.NewButtonWithIcon("Restart", theme.ViewRefreshIcon(), r.restart)
	dot := container.NewGridWrap(fyne.NewSize(14, 14), r.Dot)
	left := container.NewHBox(container.NewCenter(dot), r.Title, r.Figures)
	controls := container.NewHBox(r.Enabled, r.Restart)
	r.object = container.NewVBox(container.NewBorder(nil, nil, left, controls), r.Problem, widget.NewSeparator())
	return r
}

func (r *ServerRow) update(s ServerInfo) {
	r.info = s
	r.Dot.FillColor = healthColor(s.Health)
	r.Dot.Refresh()
	r.Title.SetText(fmt.Sprintf("%s — %s", s.Name, s.State))
	r.Figures.SetText(serverFigures(s))
	r.updating = true
	r.Enabled.SetChecked(s.Enabled)
	r.updating = false
	if s.Kind == "model" {
		r.Restart.Hide()
		r.Enabled.Hide()
	} else {
		r.Restart.Show()
		r.Enabled.Show()
	}
	r.Problem.SetText(problemText(s))
	if r.Problem.Text == "" {
		r.Problem.Hide()
	} else {
		r.Problem.Show()
	}
}

func serverFigures(s ServerInfo) string {
	text := fmt.Sprintf("%s · %s", s.Kind, orDash(s.Locality))
	if s.Kind != "model" {
		text += fmt.Sprintf(" · %d tools", s.Tools)
	}
	text += " · latency " + wall(s.Latency)
	if s.Cost != "" {
		text += " · " + s.Cost
	}
	return text
}

func problemText(s ServerInfo) string {
	if s.LastError == "" {
		return ""
	}
	text := "Last error: " + s.LastError
	if s.StderrTail != "" {
		text += "\nstderr:\n" + lastLines(s.StderrTail, 6)
	}
	return text
}

func (r *ServerRow) toggle(on bool) {
	if r.updating {
		return
	}
	name := r.info.Name
	r.tab.Status.SetText(fmt.Sprintf("%s %s…", map[bool]string{true: "Enabling", false: "Disabling"}[on], name))
	act(r.tab.bridge, func(ctx contextT) error { return r.tab.backend.SetServerEnabled(ctx, name, on) },
		r.tab.done(name))
}

func (r *ServerRow) restart() {
	name := r.info.Name
	r.tab.Status.SetText("Restarting " + name + "…")
	act(r.tab.bridge, func(ctx contextT) error { return r.tab.backend.RestartServer(ctx, name) }, r.tab.done(name))
}

// done reports the outcome of an action on name and refreshes the list.
func (t *ServersTab) done(name string) func(error) {
	return func(err error) {
		if err != nil {
			t.Status.SetText(name + ": " + err.Error())
		} else {
			t.Status.SetText(name + ": done")
		}
		t.refresh()
	}
}

// healthColor is green for ready, amber for busy, red for failed, grey otherwise.
func healthColor(h Health) color.Color {
	switch h {
	case HealthOK:
		return color.NRGBA{R: 0x2e, G: 0xa0, B: 0x43, A: 0xff}
	case HealthBusy:
		return color.NRGBA{R: 0xe0, G: 0xa0, B: 0x10, A: 0xff}
	case HealthFailed:
		return color.NRGBA{R: 0xd0, G: 0x30, B: 0x30, A: 0xff}
	default:
		return color.NRGBA{R: 0x90, G: 0x90, B: 0x90, A: 0xff}
	}
}
