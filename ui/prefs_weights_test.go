package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

func TestWeightsAreGroupedByServerAndFiltered(t *testing.T) {
	h := newHarness(t, nil)
	p := h.d.Prefs
	h.waitFor("weight rows", func() bool { return len(p.weightRows) > 0 })
	headings := map[string]bool{}
	for _, o := range p.weightBox.Objects {
		if l, ok := o.(*widget.Label); ok {
			headings[l.Text] = true
		}
	}
	for _, want := range []string{"Tools", "Models", "server github", "toolhub's own tools"} {
		if !headings[want] {
			t.Errorf("no heading %q among %v", want, headings)
		}
	}
	visible := func() map[string]bool {
		out := map[string]bool{}
		for _, r := range p.weightRows {
			if r.object.Visible() {
				out[r.name] = true
			}
		}
		return out
	}
	test.Type(p.WeightFilter, "github")
	if got := visible(); len(got) != 1 || !got["github__search_code"] {
		t.Fatalf("filter github shows %v", got)
	}
	p.WeightFilter.SetText("")
	if got := visible(); len(got) != len(p.weightRows) {
		t.Fatalf("an empty filter shows %d of %d rows", len(got), len(p.weightRows))
	}
}
