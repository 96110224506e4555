package ui

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

var weightOptions = []string{string(WeightPrefer), string(WeightNeutral), string(WeightAvoid), string(WeightOff)}

// rebuildWeights shows one prefer/neutral/avoid/off choice per tool and
// model, keeping the rows when the names have not changed.
func (t *PreferencesTab) rebuildWeights(pv PreferencesPreview) {
	keys := weightKeys(pv)
	if slices.Equal(keys, t.weightKeys()) {
		return
	}
	wasLoaded := t.loaded
	t.loaded = false
	defer func() { t.loaded = wasLoaded }()
	t.weightBox.RemoveAll()
	t.Weights = map[string]*widget.Select{}
	t.weightRows = nil
	t.addWeightRows("Tools", "tool:", pv.AllTools, t.prefs.Tools)
	t.addWeightRows("Models", "model:", pv.AllModels, t.prefs.Models)
	t.filterWeights(t.WeightFilter.Text)
}

func (t *PreferencesTab) addWeightRows(title, prefix string, names []string, current map[string]Weight) {
	if len(names) == 0 {
		return
	}
	t.weightBox.Add(boldLabel(title))
	group := ""
	for _, name := range names {
		if prefix == "tool:" {
			if g := toolGroup(name); g != group {
				group = g
				t.weightBox.Add(widget.NewLabelWithStyle(g, fyne.TextAlignLeading, fyne.TextStyle{Italic: true}))
			}
		}
		sel := widget.NewSelect(weightOptions, func(string) { t.changed() })
		w := current[name]
		if w == "" {
			w = WeightNeutral
		}
		sel.SetSelected(string(w))
		t.Weights[prefix+name] = sel
		label := widget.NewLabel(name)
		label.Truncation = fyne.TextTruncateEllipsis
		row := container.NewBorder(nil, nil, nil, sel, label)
		t.weightRows = append(t.weightRows, weightRow{name: name, group: group, object: row})
		t.weightBox.Add(row)
	}
}

// weightRow is one tool's or model's choice, for the filter.
type weightRow struct {
	name, group string
	object      fyne.CanvasObject
}

// filterWeights shows the rows whose name or server holds the filter text.
func (t *PreferencesTab) filterWeights(text string) {
	text = strings.ToLower(strings.TrimSpace(text))
	for _, r := range t.weightRows {
		if text == "" || strings.Contains(strings.ToLower(r.name), text) || strings.Contains(strings.ToLower(r.group), text) {
			r.object.Show()
		} else {
			r.object.Hide()
		}
	}
}

// toolGroup is the heading a tool is listed under: its server, or
// toolhub's own tools for the built-ins (names without a server prefix).
func toolGroup(name string) string {
	if server, _, ok := strings.Cut(name, "__"); ok && server != "" {
		return "server " + server
	}
	return "toolhub's own tools"
}

func boldLabel(text string) *widget.Label {
	return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
}

func weightKeys(pv PreferencesPreview) []string {
	keys := make([]string, 0, len(pv.AllTools)+len(pv.AllModels))
	for _, n := range pv.AllTools {
		keys = append(keys, "tool:"+n)
	}
	for _, n := range pv.AllModels {
		keys = append(keys, "model:"+n)
	}
	slices.Sort(keys)
	return keys
}

func (t *PreferencesTab) weightKeys() []string {
	keys := make([]string, 0, len(t.Weights))
	for k := range t.Weights {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
