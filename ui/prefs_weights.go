package ui

import (
	"slices"

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
	t.addWeightRows("Tools", "tool:", pv.AllTools, t.prefs.Tools)
	t.addWeightRows("Models", "model:", pv.AllModels, t.prefs.Models)
}

func (t *PreferencesTab) addWeightRows(title, prefix string, names []string, current map[string]Weight) {
	if len(names) == 0 {
		return
	}
	heading := widget.NewLabel(title)
	heading.TextStyle.Bold = true
	t.weightBox.Add(heading)
	for _, name := range names {
		sel := widget.NewSelect(weightOptions, func(string) { t.changed() })
		w := current[name]
		if w == "" {
			w = WeightNeutral
		}
		sel.SetSelected(string(w))
		t.Weights[prefix+name] = sel
		t.weightBox.Add(container.NewBorder(nil, nil, nil, sel, widget.NewLabel(name)))
	}
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
