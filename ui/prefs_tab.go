package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// privacyChoices are the radio options: a short label, and what it means,
// shown under the options for the one chosen.
var privacyChoices = []struct {
	value   Privacy
	label   string
	meaning string
}{
	{PrivacyLocalOnly, "Local only", "Nothing leaves this machine: remote tools and models are never offered or called."},
	{PrivacyPreferLocal, "Prefer local", "Local tools and models first; remote ones only when the task needs them."},
	{PrivacyAny, "Any", "Local and remote are equal; cost and speed decide."},
}

// PreferencesTab edits the routing preferences and previews their effect.
type PreferencesTab struct {
	Privacy  *widget.RadioGroup
	Cost     *widget.Slider
	Latency  *widget.Slider
	Budget   *widget.Entry
	Weights  map[string]*widget.Select // "tool:NAME" or "model:NAME"
	Sentence *widget.Label
	Allowed  *widget.Label
	Status   *widget.Label

	prefs     Preferences
	loaded    bool
	weightBox *fyne.Container
	// previewPane holds the preview and the status; it is laid out again
	// when their text changes, since a wrapped label that grows does not
	// move what lies below it.
	previewPane *container.Scroll
	costText    *widget.Label
	latText     *widget.Label
	saver       *prefsSaver
	onPrivacy   func(Privacy)
	meaning     *widget.Label // what the chosen privacy means
	// WeightFilter narrows the tools and models listed to those matching.
	WeightFilter *widget.Entry
	weightRows   []weightRow
	backend      PreferencesBackend
	bridge       *bridge
	object       fyne.CanvasObject
}

func newPreferencesTab(backend PreferencesBackend, br *bridge, onPrivacy func(Privacy)) *PreferencesTab {
	t := &PreferencesTab{
		Sentence: widget.NewLabel(""), Allowed: widget.NewLabel(""), Status: widget.NewLabel("Loading…"),
		Weights: map[string]*widget.Select{}, weightBox: container.NewVBox(),
		costText: widget.NewLabel(""), latText: widget.NewLabel(""),
		backend: backend, bridge: br, onPrivacy: onPrivacy,
	}
	t.Sentence.Wrapping = fyne.TextWrapWord
	t.Status.Wrapping = fyne.TextWrapWord
	t.Allowed.Wrapping = fyne.TextWrapWord
	t.saver = newPrefsSaver(backend, br, t.showSaved)
	t.buildControls()
	t.object = t.layout()
	return t
}

func (t *PreferencesTab) buildControls() {
	labels := make([]string, len(privacyChoices))
	for i, c := range privacyChoices {
		labels[i] = c.label
	}
	t.Privacy = widget.NewRadioGroup(labels, func(string) { t.showMeaning(); t.changed() })
	t.Privacy.Required = true
	t.Privacy.Horizontal = true
	t.meaning = widget.NewLabel("")
	t.meaning.Wrapping = fyne.TextWrapWord
	t.Cost = newWeightSlider(func() { t.changed() })
	t.Latency = newWeightSlider(func() { t.changed() })
	t.Budget = widget.NewEntry()
	t.Budget.SetPlaceHolder("no budget")
	t.Budget.Validator = validBudget
	t.Budget.OnChanged = func(string) { t.changed() }
}

func newWeightSlider(changed func()) *widget.Slider {
	s := widget.NewSlider(0, 1)
	s.Step = 0.05
	s.OnChanged = func(float64) { changed() }
	return s
}

func (t *PreferencesTab) layout() fyne.CanvasObject {
	form := widget.NewForm(
		widget.NewFormItem("Privacy", container.NewVBox(t.Privacy, t.meaning)),
		widget.NewFormItem("Cost matters", container.NewBorder(nil, nil, nil, t.costText, t.Cost)),
		widget.NewFormItem("Speed matters", container.NewBorder(nil, nil, nil, t.latText, t.Latency)),
		widget.NewFormItem("Budget per task (USD)", t.Budget),
	)
	preview := widget.NewCard("What the orchestrator is told", "",
		container.NewVBox(t.Sentence, widget.NewSeparator(), t.Allowed))
	t.WeightFilter = widget.NewEntry()
	t.WeightFilter.SetPlaceHolder("Filter tools and models…")
	t.WeightFilter.OnChanged = t.filterWeights
	weights := widget.NewCard("Tools and models", "prefer · neutral · avoid · off",
		container.NewBorder(t.WeightFilter, nil, nil, nil, t.weightBox))
	// Scrolling both ways keeps the tab's minimum width small, so that
	// nothing in it sets how wide the window must be.
	left := container.NewScroll(container.NewVBox(form, weights))
	t.previewPane = container.NewScroll(container.NewVBox(preview, t.Status))
	split := container.NewHSplit(left, t.previewPane)
	split.Offset = 0.58
	return split
}

// load reads the saved preferences and their preview.
func (t *PreferencesTab) load() {
	t.fetchSaved(func(p Preferences, pv PreferencesPreview, err error) {
		if err != nil {
			t.Status.SetText("Could not read preferences: " + err.Error())
			return
		}
		t.show(p.clone(), pv)
	})
}

// fetchSaved reads the saved preferences and their preview off the UI
// goroutine, then calls apply on it.
func (t *PreferencesTab) fetchSaved(apply func(Preferences, PreferencesPreview, error)) {
	type loaded struct {
		prefs   Preferences
		preview PreferencesPreview
	}
	fetch(t.bridge, func(ctx contextT) (loaded, error) {
		p, err := t.backend.Preferences(ctx)
		if err != nil {
			return loaded{}, err
		}
		pv, err := t.backend.Preview(ctx, p)
		return loaded{p, pv}, err
	}, func(l loaded, err error) { apply(l.prefs, l.preview, err) })
}

// refreshPreview recomputes the preview of the preferences shown, for when
// tools or models came or went.
func (t *PreferencesTab) refreshPreview() {
	if !t.loaded {
		return
	}
	p := t.prefs.clone()
	fetch(t.bridge, func(ctx contextT) (PreferencesPreview, error) { return t.backend.Preview(ctx, p) },
		func(pv PreferencesPreview, err error) {
			if err == nil {
				t.rebuildWeights(pv)
				t.showPreview(pv)
			}
		})
}

// show puts p in the widgets without saving it again.
func (t *PreferencesTab) show(p Preferences, pv PreferencesPreview) {
	t.loaded = false
	t.prefs = p
	for _, c := range privacyChoices {
		if c.value == p.Privacy {
			t.Privacy.SetSelected(c.label)
		}
	}
	t.Cost.SetValue(p.CostWeight)
	t.Latency.SetValue(p.LatencyWeight)
	t.Budget.SetText(formatBudget(p.BudgetUSD))
	t.rebuildWeights(pv)
	t.showPreview(pv)
	t.showSliderValues()
	t.onPrivacy(p.Privacy)
	t.Status.SetText("Preferences loaded")
	if p.Problem != "" {
		t.Status.SetText(problemBanner(p.Problem))
	}
	t.loaded = true
}

// changed reads the widgets into the preferences and saves them.
func (t *PreferencesTab) changed() {
	t.showSliderValues()
	if !t.loaded {
		return
	}
	p := t.prefs.clone()
	for _, c := range privacyChoices {
		if c.label == t.Privacy.Selected {
			p.Privacy = c.value
		}
	}
	p.CostWeight, p.LatencyWeight = t.Cost.Value, t.Latency.Value
	if b, err := parseBudget(t.Budget.Text); err == nil {
		p.BudgetUSD = b
	}
	for key, sel := range t.Weights {
		kind, name, _ := strings.Cut(key, ":")
		weights := p.Tools
		if kind == "model" {
			weights = p.Models
		}
		setWeight(weights, name, Weight(sel.Selected))
	}
	t.prefs = p
	t.onPrivacy(p.Privacy)
	t.Status.SetText("Saving…")
	t.saver.save(p.clone())
}

func setWeight(m map[string]Weight, name string, w Weight) {
	if w == WeightNeutral || w == "" {
		delete(m, name)
		return
	}
	m[name] = w
}

func (t *PreferencesTab) showSliderValues() {
	t.costText.SetText(fmt.Sprintf("%.2f", t.Cost.Value))
	t.latText.SetText(fmt.Sprintf("%.2f", t.Latency.Value))
}

// showSaved runs on the UI goroutine after a save.
func (t *PreferencesTab) showSaved(pv PreferencesPreview, err error) {
	if err != nil {
		t.Status.SetText("Not saved: " + err.Error())
		return
	}
	t.Status.SetText("Saved — the running hub uses these now")
	t.rebuildWeights(pv)
	t.showPreview(pv)
}

func (t *PreferencesTab) showPreview(pv PreferencesPreview) {
	t.Sentence.SetText(orDash(pv.Sentence))
	t.Allowed.SetText(fmt.Sprintf("Allowed tools (%d): %s\n\nAllowed models (%d): %s",
		len(pv.AllowedTools), orDash(strings.Join(pv.AllowedTools, ", ")),
		len(pv.AllowedModels), orDash(strings.Join(pv.AllowedModels, ", "))))
	t.previewPane.Refresh()
}

func validBudget(s string) error {
	_, err := parseBudget(s)
	return err
}

func parseBudget(s string) (float64, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("a budget is a positive number of dollars, such as 0.25")
	}
	return v, nil
}

func formatBudget(v float64) string {
	if v <= 0 {
		return ""
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// showMeaning says under the privacy options what the chosen one means.
func (t *PreferencesTab) showMeaning() {
	for _, c := range privacyChoices {
		if c.label == t.Privacy.Selected {
			t.meaning.SetText(c.meaning)
			return
		}
	}
	t.meaning.SetText("")
}
