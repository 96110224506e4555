package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ServerRow is one server, built-in tool provider or model: a coloured
// state dot, its figures, its controls, what is wrong with it in words,
// and its tools, shown on demand.
type ServerRow struct {
	Dot     *canvas.Circle
	Title   *widget.Label
	Figures *widget.Label
	Enabled *widget.Check
	Restart *widget.Button
	Edit    *widget.Button
	Remove  *widget.Button
	// SignIn is shown on a server waiting for an OAuth sign-in.
	SignIn  *widget.Button
	Problem *widget.Label
	// CopyDetails copies the full error text behind Problem.
	CopyDetails *widget.Button
	// ToolsButton shows and hides ToolsBox, the tools with their
	// descriptions.
	ToolsButton *widget.Button
	ToolsBox    *fyne.Container

	info     ServerInfo
	updating bool
	tab      *ServersTab
	object   fyne.CanvasObject
}

func newServerRow(t *ServersTab) *ServerRow {
	r := &ServerRow{Dot: canvas.NewCircle(healthColor(HealthUnknown)), Title: widget.NewLabel(""),
		Figures: widget.NewLabel(""), Problem: widget.NewLabel(""), ToolsBox: container.NewVBox(), tab: t}
	r.Title.TextStyle.Bold = true
	r.Problem.Wrapping = fyne.TextWrapWord
	r.Enabled = widget.NewCheck("enabled", r.toggle)
	r.Restart = widget.NewButtonWithIcon("Restart", theme.ViewRefreshIcon(), r.restart)
	r.Edit = widget.NewButtonWithIcon("Edit", theme.DocumentCreateIcon(), func() { t.askEdit(r.info.Name) })
	r.Remove = widget.NewButtonWithIcon("Remove", theme.DeleteIcon(), func() { t.askRemove(r.info.Name) })
	r.CopyDetails = widget.NewButtonWithIcon("Copy details", theme.ContentCopyIcon(), r.copyDetails)
	r.SignIn = widget.NewButtonWithIcon("Sign in", theme.LoginIcon(), func() { t.signIn(r.info.Name) })
	r.SignIn.Importance = widget.HighImportance
	r.ToolsButton = widget.NewButton("", r.toggleTools)
	r.ToolsBox.Hide()
	r.Title.Truncation = fyne.TextTruncateEllipsis
	r.Figures.Wrapping = fyne.TextWrapWord
	dot := container.NewGridWrap(fyne.NewSize(14, 14), r.Dot)
	// Two lines, so that a long name or many controls never widen the window.
	head := container.NewBorder(nil, nil, container.NewCenter(dot), nil, r.Title)
	controls := container.NewHBox(r.SignIn, r.ToolsButton, r.Enabled, r.Restart, r.Edit, r.Remove)
	problem := container.NewBorder(nil, nil, nil, r.CopyDetails, r.Problem)
	r.object = container.NewVBox(head, r.Figures, controls, problem, r.ToolsBox, widget.NewSeparator())
	return r
}

func (r *ServerRow) update(s ServerInfo) {
	r.info = s
	r.Dot.FillColor = healthColor(s.Health)
	r.Dot.Refresh()
	name := s.Name
	if s.Title != "" {
		name = s.Title
	}
	r.Title.SetText(name + " — " + s.State)
	r.Figures.SetText(serverFigures(s))
	r.updating = true
	r.Enabled.SetChecked(s.Enabled)
	r.updating = false
	model, configured := s.Kind == KindModel, s.Kind == KindServer
	showIf(r.Enabled, !model)
	showIf(r.Restart, !model && s.Enabled)
	showIf(r.Edit, configured)
	showIf(r.Remove, configured)
	showIf(r.SignIn, s.State == StateNeedsSignIn)
	showIf(r.ToolsButton, len(s.ToolList) > 0)
	r.showTools()
	text, details := problemText(s)
	r.Problem.SetText(text)
	showIf(r.Problem, text != "")
	showIf(r.CopyDetails, details != "")
}

func serverFigures(s ServerInfo) string {
	text := orDash(s.Locality)
	if s.Kind != KindModel {
		text += " · " + Plural(s.Tools, "tool", "tools")
	}
	text += " · latency " + wall(s.Latency)
	if s.Cost != "" {
		text += " · " + s.Cost
	}
	return text
}

// problemText is what is wrong in words, and the full text behind it.
func problemText(s ServerInfo) (text, details string) {
	if s.Problem != nil {
		return s.Problem.sentence(), s.Problem.Details
	}
	if s.LastError == "" {
		return "", ""
	}
	details = s.LastError
	if s.StderrTail != "" {
		details += "\n\nstderr:\n" + lastLines(s.StderrTail, 20)
	}
	return "Last error: " + shorten(s.LastError, 160), details
}

// showTools fills the tool list and names the button after what it does.
func (r *ServerRow) showTools() {
	n := len(r.info.ToolList)
	if r.ToolsBox.Visible() {
		r.ToolsButton.SetText("Hide tools")
	} else {
		r.ToolsButton.SetText("Show " + Plural(n, "tool", "tools"))
	}
	r.ToolsBox.Objects = r.ToolsBox.Objects[:0]
	for _, tool := range r.info.ToolList {
		l := widget.NewLabel(tool.Name + " — " + orDash(tool.Description))
		l.Wrapping = fyne.TextWrapWord
		r.ToolsBox.Objects = append(r.ToolsBox.Objects, l)
	}
	r.ToolsBox.Refresh()
}

func (r *ServerRow) toggleTools() {
	showIf(r.ToolsBox, !r.ToolsBox.Visible())
	r.showTools()
}

func (r *ServerRow) copyDetails() {
	_, details := problemText(r.info)
	r.tab.copy(details)
}

func (r *ServerRow) toggle(on bool) {
	if r.updating {
		return
	}
	name := r.info.Name
	verb := map[bool]string{true: "Turning on ", false: "Turning off "}[on]
	r.tab.say(verb + name + "…")
	act(r.tab.bridge, func(ctx contextT) error { return r.tab.backend.SetServerEnabled(ctx, name, on) },
		r.tab.done(name))
}

func (r *ServerRow) restart() {
	name := r.info.Name
	r.tab.say("Restarting " + name + "…")
	act(r.tab.bridge, func(ctx contextT) error { return r.tab.backend.RestartServer(ctx, name) }, r.tab.done(name))
}

// done reports the outcome of an action on name and refreshes the list.
func (t *ServersTab) done(name string) func(error) {
	return func(err error) {
		if err != nil {
			t.fail(name+":", err)
		} else {
			t.say(name + ": done")
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
