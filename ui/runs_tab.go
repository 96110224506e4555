package ui

import (
	"context"
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// RunsTab runs tasks with live steps, and shows the history, one run's
// detail and charts of spend and tool use.
type RunsTab struct {
	Task      *widget.Entry
	Mode      *widget.Select
	RunButton *widget.Button
	CancelBtn *widget.Button
	State     *widget.Label
	// CopyDetails copies the full text behind a failed run's error.
	CopyDetails *widget.Button
	Steps       *fyne.Container
	StepRows    []*stepRow // the rows in Steps, in order
	Answer      *widget.Label
	History     *runHistory
	Spend       *BarChart
	Mix         *BarChart

	running bool
	started bool              // a run was started here: the newest stored run is not shown over it
	expand  int               // the 1-based step shown expanded as it arrives; 0 for none
	scroll  *container.Scroll // holds the steps and the answer
	cancel  context.CancelFunc
	line    *statusLine
	backend RunsBackend
	bridge  *bridge
	object  fyne.CanvasObject
}

var (
	spendColor = color.NRGBA{R: 0x3b, G: 0x82, B: 0xf6, A: 0xff}
	mixColor   = color.NRGBA{R: 0x8b, G: 0x5c, B: 0xf6, A: 0xff}
)

func newRunsTab(backend RunsBackend, br *bridge, a fyne.App) *RunsTab {
	line := newStatusLine(a, "Ready")
	t := &RunsTab{Task: widget.NewMultiLineEntry(), Mode: widget.NewSelect(RunModes, nil),
		State: line.Label, CopyDetails: line.CopyDetails, line: line, Steps: container.NewVBox(), Answer: widget.NewLabel(""),
		Spend:   NewBarChart("Spend per day (USD)", true, spendColor),
		Mix:     NewBarChart("Calls per tool and model (selected run)", false, mixColor),
		backend: backend, bridge: br}
	t.Task.SetPlaceHolder("Describe a task, e.g. “Summarise what my notes say about the Q3 launch”")
	t.Task.SetMinRowsVisible(3)
	t.Task.Wrapping = fyne.TextWrapWord
	t.Mode.SetSelected(RunModes[0])
	t.Answer.Wrapping = fyne.TextWrapWord
	t.RunButton = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), t.StartRun)
	t.RunButton.Importance = widget.HighImportance
	t.CancelBtn = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), t.CancelRun)
	t.CancelBtn.Disable()
	t.History = newRunHistory(backend, br, t.showDetail)
	t.object = t.layout()
	return t
}

func (t *RunsTab) layout() fyne.CanvasObject {
	controls := container.NewBorder(nil, nil,
		container.NewHBox(widget.NewLabel("Mode"), t.Mode, t.RunButton, t.CancelBtn), nil, t.line.object)
	stepsCard := widget.NewCard("Steps", "", t.Steps)
	answerCard := widget.NewCard("Answer", "", t.Answer)
	t.scroll = container.NewVScroll(container.NewVBox(stepsCard, answerCard))
	left := container.NewBorder(container.NewVBox(t.Task, controls), nil, nil, nil, t.scroll)
	charts := container.NewScroll(container.NewGridWithColumns(2, t.Spend, t.Mix))
	right := container.NewVSplit(t.History.object, charts)
	right.Offset = 0.55
	split := container.NewHSplit(left, right)
	split.Offset = 0.5
	return split
}

// StartRun runs the typed task; steps arrive live from the backend.
func (t *RunsTab) StartRun() {
	req := RunRequest{Task: t.Task.Text, Mode: t.Mode.Selected}
	if t.running || req.Task == "" {
		if req.Task == "" {
			t.State.SetText("Type a task first")
		}
		return
	}
	t.running, t.started = true, true
	t.RunButton.Disable()
	t.CancelBtn.Enable()
	t.clearSteps()
	t.Answer.SetText("")
	t.line.say("Running…")
	ctx, cancel := t.bridge.cancellable()
	t.cancel = cancel
	go func() {
		defer cancel()
		onStep := func(s RunStep) { t.bridge.onUI(func() { t.addStep(s) }) }
		detail, err := t.backend.Run(ctx, req, onStep)
		t.bridge.onUI(func() { t.finished(detail, err) })
	}()
}

// RunTask types task and runs it.
func (t *RunsTab) RunTask(task string) {
	t.Task.SetText(task)
	t.StartRun()
}

// CancelRun cancels the running task; with none running it does nothing.
func (t *RunsTab) CancelRun() {
	if t.running && t.cancel != nil {
		t.State.SetText("Cancelling…")
		t.cancel()
	}
}

func (t *RunsTab) addStep(s RunStep) {
	t.addRow(s)
	t.State.SetText(fmt.Sprintf("Running… %s", Plural(len(t.StepRows), "step", "steps")))
	t.relayout()
}

// ExpandStep has step n (1-based) of the runs shown from now on open as
// it arrives.
func (t *RunsTab) ExpandStep(n int) { t.expand = n }

func (t *RunsTab) addRow(s RunStep) {
	row := newStepRow(s)
	if s.Index+1 == t.expand {
		row.SetExpanded(true)
	}
	t.StepRows = append(t.StepRows, row)
	t.Steps.Add(row.object)
}

func (t *RunsTab) clearSteps() {
	t.StepRows = nil
	t.Steps.RemoveAll()
}

// showSteps puts a whole run's steps and answer in the steps area.
func (t *RunsTab) showSteps(d RunDetail) {
	t.clearSteps()
	for _, s := range d.Steps {
		t.addRow(s)
	}
	t.Answer.SetText(answerText(d, nil))
	t.relayout()
}

// answerText is what the Answer card says of a finished run.
func answerText(d RunDetail, err error) string {
	switch {
	case d.Answer != "" && d.Forced:
		return d.Answer + "\n\n(answered by the fallback policy: the orchestrator model was not used)"
	case d.Answer != "":
		return d.Answer
	case err != nil:
		return "No answer. " + plain(err).sentence()
	case d.Error != "":
		return "No answer: " + d.Error
	}
	return ""
}

func (t *RunsTab) finished(d RunDetail, err error) {
	t.running, t.cancel = false, nil
	t.RunButton.Enable()
	t.CancelBtn.Disable()
	status := statusText(d.Status, d.Forced)
	if d.Status == "" && err != nil {
		status = "failed"
	}
	t.State.SetText(fmt.Sprintf("%s · %s · %s · %s", orDash(status), usd(d.USD), wall(d.Wall),
		Plural(d.ToolCalls, "tool call", "tool calls")))
	t.line.keepDetails(err)
	if text := answerText(d, err); text != "" {
		t.Answer.SetText(text)
	}
	if d.ID != "" {
		t.History.Detail.SetText(describeRun(d))
		t.Mix.SetBars(toolMix(d.Steps))
	}
	t.relayout()
	t.History.reload()
}

// relayout grows the scrolled steps and answer to their new size.
func (t *RunsTab) relayout() {
	t.scroll.Content.Refresh()
	t.scroll.Refresh()
	t.scroll.ScrollToBottom()
}

// showDetail shows a run from the history: one the user picked, or the
// newest stored one unless a run was started here meanwhile.
func (t *RunsTab) showDetail(d RunDetail, auto bool) {
	if auto && t.started {
		return
	}
	t.History.Detail.SetText(describeRun(d))
	t.Mix.SetBars(toolMix(d.Steps))
	if !t.running {
		t.showSteps(d)
	}
}

// load fills the history and the spend chart.
func (t *RunsTab) load() {
	t.History.onLoaded = func(runs []RunSummary) { t.Spend.SetBars(spendPerDay(runs, 10)) }
	t.History.reload()
}
