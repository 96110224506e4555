package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// statusLine is a line of status text that says what went wrong in words
// (the backend's PlainError: what happened and the fix), with a "Copy
// details" button for the full text behind it. Every tab that reports a
// failure uses one, so that no tab shows an error chain to the user.
type statusLine struct {
	Label       *widget.Label
	CopyDetails *widget.Button
	// Details is the text "Copy details" copies; empty hides the button.
	Details string

	app    fyne.App
	object fyne.CanvasObject
}

func newStatusLine(app fyne.App, text string) *statusLine {
	l := &statusLine{Label: widget.NewLabel(text), app: app}
	l.Label.Truncation = fyne.TextTruncateEllipsis
	l.CopyDetails = widget.NewButtonWithIcon("Copy details", theme.ContentCopyIcon(), l.copy)
	l.CopyDetails.Hide()
	l.object = container.NewBorder(nil, nil, nil, l.CopyDetails, l.Label)
	return l
}

// say shows a message that needs no details.
func (l *statusLine) say(text string) {
	l.Label.SetText(text)
	l.Details = ""
	l.CopyDetails.Hide()
}

// fail shows lead and what went wrong in words, keeping the full text for
// "Copy details".
func (l *statusLine) fail(lead string, err error) {
	pe := plain(err)
	l.Label.SetText(joinSentences(lead, pe.sentence()))
	l.Details = pe.Details
	showIf(l.CopyDetails, l.Details != "")
}

// keepDetails offers err's full text under whatever the line says now;
// a nil err offers nothing.
func (l *statusLine) keepDetails(err error) {
	l.Details = ""
	if err != nil {
		l.Details = plain(err).Details
	}
	showIf(l.CopyDetails, l.Details != "")
}

func (l *statusLine) copy() {
	if l.app != nil && l.Details != "" {
		l.app.Clipboard().SetContent(l.Details)
	}
}
