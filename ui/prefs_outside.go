package ui

import (
	"maps"
	"strings"
)

const problemPrefix = "The preferences file has a problem"

// problemBanner says that the file on disk is not in force, why, and what
// is in force instead.
func problemBanner(problem string) string {
	return problemPrefix + ", so the last valid preferences stay in force (shown here). Fix the file or save here to replace it: " + problem
}

// followSaved brings the tab up to the preferences in force after they
// changed: when they differ from what the tab shows and the user has no
// save on its way, another program (or a hand edit of the file) changed
// them, and the tab shows the new ones; otherwise only the preview is
// recomputed.
func (t *PreferencesTab) followSaved() {
	if !t.loaded {
		return
	}
	t.fetchSaved(func(p Preferences, pv PreferencesPreview, err error) {
		switch {
		case err != nil:
			t.Status.SetText("Could not read preferences: " + err.Error())
		case p.Problem != "":
			t.Status.SetText(problemBanner(p.Problem))
		case t.saver.busy() || samePreferences(p, t.prefs):
			if strings.HasPrefix(t.Status.Text, problemPrefix) {
				t.Status.SetText("The preferences file is valid again")
			}
			t.refreshPreview()
		default:
			t.show(p.clone(), pv)
			t.Status.SetText("Preferences changed outside the app")
		}
	})
}

// samePreferences reports whether a and b say the same.
func samePreferences(a, b Preferences) bool {
	return a.Privacy == b.Privacy && a.CostWeight == b.CostWeight && a.LatencyWeight == b.LatencyWeight &&
		a.BudgetUSD == b.BudgetUSD && sameWeights(a.Tools, b.Tools) && sameWeights(a.Models, b.Models)
}

// sameWeights treats a missing entry as neutral.
func sameWeights(a, b map[string]Weight) bool {
	norm := func(m map[string]Weight) map[string]Weight {
		out := make(map[string]Weight, len(m))
		for k, v := range m {
			if v != WeightNeutral && v != "" {
				out[k] = v
			}
		}
		return out
	}
	return maps.Equal(norm(a), norm(b))
}
