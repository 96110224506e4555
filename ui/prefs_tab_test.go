package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// TestPreviewThatGrowsPushesTheStatusDown: the preview's allowed tools
// are a wrapped label; when tools come and the text grows, the status
// below must move down with it instead of being drawn over it.
func TestPreviewThatGrowsPushesTheStatusDown(t *testing.T) {
	h := newHarness(t, nil)
	h.d.Window.Resize(fyne.NewSize(1200, 800))
	p := h.d.Prefs
	driver := fyne.CurrentApp().Driver()
	for _, tools := range []int{1, 40} {
		p.showPreview(PreferencesPreview{Sentence: "s", AllowedTools: strings.Split(strings.Repeat("some_long_tool_name,", tools), ",")})
		allowed, status := driver.AbsolutePositionForObject(p.Allowed), driver.AbsolutePositionForObject(p.Status)
		if got, want := p.Allowed.Size().Height, p.Allowed.MinSize().Height; got < want {
			t.Errorf("%d tools: the allowed list is %.0f high, it needs %.0f", tools, got, want)
		}
		if bottom := allowed.Y + p.Allowed.Size().Height; status.Y < bottom {
			t.Errorf("%d tools: the status at y=%.0f overlaps the allowed list, which ends at y=%.0f", tools, status.Y, bottom)
		}
	}
}
