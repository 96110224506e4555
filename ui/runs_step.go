package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// stepRow is one step of a run: a one-line summary that is cut with an
// ellipsis rather than widening the window, and a button that shows the
// step's input, output and error below it.
type stepRow struct {
	Summary *widget.Label
	Toggle  *widget.Button
	Details *widget.Label // wrapped; hidden until expanded
	object  fyne.CanvasObject
}

func newStepRow(s RunStep) *stepRow {
	r := &stepRow{Summary: widget.NewLabel(stepSummary(s)), Details: widget.NewLabel(stepDetails(s))}
	r.Summary.Truncation = fyne.TextTruncateEllipsis
	r.Details.Wrapping = fyne.TextWrapBreak
	r.Details.Hide()
	r.Toggle = widget.NewButtonWithIcon("", theme.MenuExpandIcon(), func() { r.SetExpanded(!r.Details.Visible()) })
	r.Toggle.Importance = widget.LowImportance
	r.object = container.NewVBox(container.NewBorder(nil, nil, r.Toggle, nil, r.Summary), r.Details)
	return r
}

// SetExpanded shows or hides the step's details.
func (r *stepRow) SetExpanded(open bool) {
	if open {
		r.Details.Show()
		r.Toggle.SetIcon(theme.MenuDropDownIcon())
	} else {
		r.Details.Hide()
		r.Toggle.SetIcon(theme.MenuExpandIcon())
	}
	r.object.Refresh()
}

// stepSummary is the step's one line: number, what it was, where it ran,
// how long and what it cost, and what went wrong.
func stepSummary(s RunStep) string {
	parts := []string{stepKindText(s)}
	if s.Locality != "" {
		parts = append(parts, s.Locality)
	}
	if (s.Kind == "model" || s.Kind == "tool") && !s.Refused {
		parts = append(parts, wall(s.Wall), usd(s.USD))
	}
	line := fmt.Sprintf("%d. %s", s.Index+1, strings.Join(parts, " · "))
	switch {
	case s.Refused:
		line += " · not sent: " + refusalText(s.Error)
	case s.Error != "":
		line += " · ✗ " + s.Error
	}
	return line
}

func stepKindText(s RunStep) string {
	switch s.Kind {
	case "tool":
		return "tool " + s.Name
	case "model":
		if s.Purpose != "" {
			return "model " + s.Name + " (" + s.Purpose + ")"
		}
		return "model " + s.Name
	case "observation":
		return "note: " + firstLine(s.Text)
	case "answer":
		return "answer: " + firstLine(s.Text)
	}
	return s.Kind + " " + s.Name
}

// refusalText says why a call was not sent in the user's words: the guard's
// "not allowed: tool x: off in the preferences" becomes "x is off in the
// preferences".
func refusalText(err string) string {
	rest, ok := strings.CutPrefix(err, "not allowed: ")
	if !ok {
		return err
	}
	for _, kind := range []string{"tool ", "model "} {
		rest = strings.TrimPrefix(rest, kind)
	}
	if name, why, ok := strings.Cut(rest, ": "); ok {
		if strings.HasPrefix(why, "off ") {
			return name + " is " + why
		}
		return name + ": " + why
	}
	return rest
}

// stepDetails is what the step shows when expanded.
func stepDetails(s RunStep) string {
	var b strings.Builder
	add := func(title, text string) {
		if text = strings.TrimSpace(text); text != "" {
			fmt.Fprintf(&b, "%s:\n%s\n\n", title, text)
		}
	}
	if s.Refused {
		add("Not sent", refusalText(s.Error))
	} else {
		add("Error", s.Error)
	}
	if strings.Contains(s.Text, "\n") || s.Kind == "observation" || s.Kind == "answer" {
		add("Text", s.Text)
	}
	add("Input", s.Input)
	add("Output", s.Output)
	if b.Len() == 0 {
		return "Nothing more was recorded for this step."
	}
	return strings.TrimSpace(b.String())
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
