package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// ownServer is the preset choice for a model server the user runs.
const ownServer = "A server I run (URL below)"

// guideModel is the guide's first page: where the orchestrator answers,
// tested with a click, or a server toolhub starts itself.
type guideModel struct {
	Preset     *widget.Select
	PresetInfo *widget.Label
	URL        *widget.Entry
	Model      *widget.Entry
	Test       *widget.Button
	Save       *widget.Button
	Result     *widget.Label

	presets []ModelPreset
	saved   func()
	backend GuideBackend
	bridge  *bridge
	object  fyne.CanvasObject
}

func newGuideModel(backend GuideBackend, br *bridge, saved func()) *guideModel {
	m := &guideModel{Preset: widget.NewSelect([]string{ownServer}, nil), PresetInfo: widget.NewLabel(""),
		URL: widget.NewEntry(), Model: widget.NewEntry(), Result: widget.NewLabel(""),
		saved: saved, backend: backend, bridge: br}
	m.URL.SetPlaceHolder("http://127.0.0.1:8000/v1")
	m.Model.SetPlaceHolder("nvidia/Nemotron-Orchestrator-8B")
	m.PresetInfo.Wrapping = fyne.TextWrapWord
	m.Result.Wrapping = fyne.TextWrapWord
	m.Preset.OnChanged = m.choosePreset
	m.Test = widget.NewButton("Test", m.test)
	m.Save = widget.NewButton("Save", m.save)
	m.Save.Importance = widget.HighImportance
	intro := widget.NewLabel("The orchestrator model decides which tool or model handles each step. " +
		"Point toolhub at an OpenAI-compatible server that serves it, or let toolhub start one.")
	intro.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(
		widget.NewFormItem("Server", m.Preset),
		widget.NewFormItem("URL", m.URL),
		widget.NewFormItem("Model id", m.Model),
	)
	m.object = container.NewVBox(intro, form, m.PresetInfo, container.NewHBox(m.Test, m.Save), m.Result)
	return m
}

// guideStart is what the page opens with: the presets, and the
// orchestrator configured now.
type guideStart struct {
	presets []ModelPreset
	setup   SetupState
}

// load fetches the presets and the configured orchestrator off the UI
// goroutine; a configured orchestrator fills the page, so that the user
// edits what is there rather than starting from the placeholders.
func (m *guideModel) load() {
	fetch(m.bridge, func(ctx contextT) (guideStart, error) {
		st, err := m.backend.SetupState(ctx)
		return guideStart{presets: m.backend.ModelPresets(ctx), setup: st}, err
	}, func(g guideStart, err error) {
		m.presets = g.presets
		options := []string{ownServer}
		for _, pr := range g.presets {
			options = append(options, pr.Name)
		}
		m.Preset.SetOptions(options)
		if m.Preset.Selected != "" {
			return
		}
		if err != nil || !g.setup.ModelConfigured {
			m.Preset.SetSelected(ownServer)
			return
		}
		m.prefill(g.setup.Model)
	})
}

// prefill shows the configured orchestrator, unless the user has begun
// typing another.
func (m *guideModel) prefill(s ModelSetup) {
	if m.URL.Text != "" || m.Model.Text != "" {
		return
	}
	if _, ok := m.preset(s.Preset); ok {
		m.Preset.SetSelected(s.Preset) // fills URL and model from the preset
	} else {
		m.Preset.SetSelected(ownServer)
	}
	m.URL.SetText(s.BaseURL)
	m.Model.SetText(s.Model)
	m.Result.SetText("Configured now: " + s.Model + " at " + s.BaseURL + ".")
}

func (m *guideModel) preset(name string) (ModelPreset, bool) {
	for _, p := range m.presets {
		if p.Name == name {
			return p, true
		}
	}
	return ModelPreset{}, false
}

// choosePreset fills the URL and model of a preset and says what it needs.
func (m *guideModel) choosePreset(name string) {
	p, ok := m.preset(name)
	if !ok {
		m.PresetInfo.SetText("")
		return
	}
	m.URL.SetText(p.BaseURL)
	m.Model.SetText(p.Model)
	installed := "installed"
	if !p.Installed {
		installed = "not found on the PATH: install it first"
	}
	m.PresetInfo.SetText(fmt.Sprintf("toolhub starts: %s\n%s: %s · needs %s · %s", p.Command,
		strings.Fields(p.Command)[0], installed, p.Needs, p.GPU))
}

// setup is what the page would save.
func (m *guideModel) setup() ModelSetup {
	s := ModelSetup{BaseURL: strings.TrimSpace(m.URL.Text), Model: strings.TrimSpace(m.Model.Text)}
	if s.BaseURL == "" {
		s.BaseURL = m.URL.PlaceHolder
	}
	if s.Model == "" {
		s.Model = m.Model.PlaceHolder
	}
	if _, ok := m.preset(m.Preset.Selected); ok {
		s.Preset = m.Preset.Selected
	}
	return s
}

func (m *guideModel) test() {
	url := m.setup().BaseURL
	m.Result.SetText("Asking " + url + "…")
	fetch(m.bridge, func(ctx contextT) ([]string, error) { return m.backend.TestModel(ctx, url) },
		func(models []string, err error) {
			switch {
			case err != nil:
				m.Result.SetText("✗ " + err.Error())
			case len(models) == 0:
				m.Result.SetText("✓ The server answers, but lists no models.")
			default:
				m.Result.SetText("✓ The server answers and serves: " + strings.Join(models, ", "))
			}
		})
}

func (m *guideModel) save() {
	s := m.setup()
	m.Save.Disable()
	fetch(m.bridge, func(ctx contextT) (struct{}, error) { return struct{}{}, m.backend.SaveModel(ctx, s) },
		func(_ struct{}, err error) {
			m.Save.Enable()
			if err != nil {
				m.Result.SetText("✗ Not saved: " + err.Error())
				return
			}
			m.Result.SetText("✓ Saved: runs now use " + s.Model + " at " + s.BaseURL + ".")
			m.saved()
		})
}
