package ui

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Header shows the MCP endpoint, client config buttons, the orchestrator's
// health and the local-only badge.
type Header struct {
	EndpointLabel *widget.Label
	HealthLabel   *widget.Label
	LocalOnly     *fyne.Container // shown while privacy is local-only
	CopyButtons   map[string]*widget.Button
	// Copied holds the text most recently put on the clipboard, and
	// CopiedNote says what it was.
	Copied     string
	CopiedNote *widget.Label

	backend HeaderBackend
	bridge  *bridge
	app     fyne.App
	buttons *fyne.Container
	object  fyne.CanvasObject
}

func newHeader(a fyne.App, backend HeaderBackend, br *bridge) *Header {
	h := &Header{
		EndpointLabel: widget.NewLabel("MCP endpoint: starting…"),
		HealthLabel:   widget.NewLabel("Orchestrator: checking…"),
		CopyButtons:   map[string]*widget.Button{},
		CopiedNote:    widget.NewLabel(""),
		backend:       backend, bridge: br, app: a,
		buttons: container.NewHBox(),
	}
	h.EndpointLabel.TextStyle.Bold = true
	h.EndpointLabel.Truncation = fyne.TextTruncateEllipsis
	h.HealthLabel.Truncation = fyne.TextTruncateEllipsis
	h.LocalOnly = localOnlyBadge()
	h.LocalOnly.Hide()
	// Two rows, each with one label that gives way: the endpoint and the
	// local-only badge, then the orchestrator's health and the copy
	// buttons. Nothing overlaps however narrow the window is.
	h.object = container.NewVBox(
		container.NewBorder(nil, nil, nil, h.LocalOnly, h.EndpointLabel),
		container.NewBorder(nil, nil, nil, container.NewHBox(h.CopiedNote, h.buttons), h.HealthLabel),
		widget.NewSeparator(),
	)
	return h
}

// localOnlyBadge is a green pill saying nothing leaves the machine.
func localOnlyBadge() *fyne.Container {
	bg := canvas.NewRectangle(color.NRGBA{R: 0x1b, G: 0x8a, B: 0x3c, A: 0xff})
	bg.CornerRadius = 8
	text := canvas.NewText("  LOCAL ONLY — nothing leaves this machine  ", color.White)
	text.TextStyle.Bold = true
	return container.NewStack(bg, container.NewPadded(text))
}

// load reads the endpoint and probes the orchestrator, off the UI goroutine.
func (h *Header) load() {
	fetch(h.bridge, func(ctx contextT) (Endpoint, error) { return h.backend.Endpoint(), nil },
		func(e Endpoint, _ error) { h.showEndpoint(e) })
	h.probe()
}

// probe refreshes the orchestrator's health.
func (h *Header) probe() {
	fetch(h.bridge, func(ctx contextT) (OrchestratorHealth, error) { return h.backend.OrchestratorHealth(ctx), nil },
		func(o OrchestratorHealth, _ error) { h.HealthLabel.SetText(describeHealth(o)) })
}

func (h *Header) showEndpoint(e Endpoint) {
	state := e.State
	if state == "" {
		state = "unknown"
	}
	h.EndpointLabel.SetText(fmt.Sprintf("MCP endpoint: %s (%s)", orDash(e.URL), state))
	h.buttons.RemoveAll()
	h.CopyButtons = map[string]*widget.Button{}
	for _, s := range e.Snippets {
		btn := widget.NewButtonWithIcon(s.Client, theme.ContentCopyIcon(), func() { h.copy(s.Client, s.Text) })
		h.CopyButtons[s.Client] = btn
		h.buttons.Add(btn)
	}
}

// copy puts the config for client on the clipboard and says so.
func (h *Header) copy(client, text string) {
	h.Copied = text
	h.app.Clipboard().SetContent(text)
	h.CopiedNote.SetText("✓ Copied for " + client)
}

// setPrivacy shows or hides the local-only badge.
func (h *Header) setPrivacy(p Privacy) {
	if p == PrivacyLocalOnly {
		h.LocalOnly.Show()
		return
	}
	h.LocalOnly.Hide()
}

func describeHealth(o OrchestratorHealth) string {
	if !o.Reachable {
		msg := "Orchestrator: unreachable"
		if o.Model != "" {
			msg += " (" + o.Model + ")"
		}
		if o.Detail != "" {
			msg += " — " + o.Detail
		}
		return msg
	}
	if o.Loading {
		return strings.Join(nonEmpty([]string{"Orchestrator: loading the model…", o.Model,
			"runs wait for it to be ready"}), " · ")
	}
	parts := []string{"Orchestrator: reachable", o.Model}
	if o.GPU != "" {
		parts = append(parts, "GPU "+o.GPU)
	}
	if o.Memory != "" {
		parts = append(parts, "memory "+o.Memory)
	}
	if o.Detail != "" {
		parts = append(parts, o.Detail)
	}
	return strings.Join(nonEmpty(parts), " · ")
}
