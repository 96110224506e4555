package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// historyLimit is how many past runs the history lists.
const historyLimit = 500

// runHistory lists past runs with a search box and shows a picked run.
type runHistory struct {
	Search   *widget.Entry
	List     *widget.List
	Detail   *widget.Label
	runs     []RunSummary
	opened   bool // the newest run was shown once
	onLoaded func([]RunSummary)
	onPick   func(d RunDetail, auto bool)
	backend  RunsBackend
	bridge   *bridge
	object   fyne.CanvasObject
}

func newRunHistory(backend RunsBackend, br *bridge, onPick func(RunDetail, bool)) *runHistory {
	h := &runHistory{Search: widget.NewEntry(), Detail: widget.NewLabel("Pick a run to see its steps"),
		onPick: onPick, backend: backend, bridge: br}
	h.Search.SetPlaceHolder("Search past runs…")
	h.Search.OnChanged = func(string) { h.reload() }
	h.Detail.Wrapping = fyne.TextWrapWord
	h.List = widget.NewList(func() int { return len(h.runs) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		func(i widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(historyLine(h.runs[i])) })
	h.List.OnSelected = func(i widget.ListItemID) { h.open(h.runs[i].ID, false) }
	detail := container.NewVScroll(h.Detail)
	split := container.NewVSplit(h.List, detail)
	split.Offset = 0.5
	h.object = container.NewBorder(widget.NewLabelWithStyle("History", fyne.TextAlignLeading,
		fyne.TextStyle{Bold: true}), nil, nil, nil, container.NewBorder(h.Search, nil, nil, nil, split))
	return h
}

func historyLine(r RunSummary) string {
	return fmt.Sprintf("%s  %s · %s · %s · %s", r.Started.Local().Format("Jan 02 15:04"), statusText(r.Status, r.Forced),
		usd(r.USD), wall(r.Wall), shorten(r.Task, 60))
}

// Tasks lists the tasks of the runs shown, newest first.
func (h *runHistory) Tasks() []string {
	out := make([]string, len(h.runs))
	for i, r := range h.runs {
		out[i] = r.Task
	}
	return out
}

// reload lists the runs matching the search box.
func (h *runHistory) reload() {
	q := h.Search.Text
	fetch(h.bridge, func(ctx contextT) ([]RunSummary, error) { return h.backend.History(ctx, q, historyLimit) },
		func(runs []RunSummary, err error) {
			if err != nil {
				h.Detail.SetText("Could not read the history. " + plain(err).sentence())
				return
			}
			h.runs = runs
			h.List.UnselectAll()
			h.List.Refresh()
			if h.onLoaded != nil {
				h.onLoaded(runs)
			}
			if !h.opened && len(runs) > 0 {
				h.opened = true
				h.open(runs[0].ID, true)
			}
		})
}

// open loads one run's detail; auto says the user did not pick it.
func (h *runHistory) open(id string, auto bool) {
	fetch(h.bridge, func(ctx contextT) (RunDetail, error) { return h.backend.RunDetail(ctx, id) },
		func(d RunDetail, err error) {
			if err != nil {
				h.Detail.SetText("Could not read run " + id + ". " + plain(err).sentence())
				return
			}
			h.onPick(d, auto)
		})
}

func describeRun(d RunDetail) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s — %s, %s mode, %s, %s\nTask: %s\n\n", d.ID, statusText(d.Status, d.Forced), orDash(d.Mode), usd(d.USD), wall(d.Wall), d.Task)
	for _, s := range d.Steps {
		b.WriteString(stepSummary(s) + "\n")
	}
	if d.Answer != "" {
		b.WriteString("\nAnswer: " + d.Answer)
	}
	if d.Error != "" {
		b.WriteString("\nError: " + d.Error)
	}
	return b.String()
}
