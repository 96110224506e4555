package ui

import "fyne.io/fyne/v2"

// Keys of the window state in the app's preferences store.
const (
	prefWidth       = "window.width"
	prefHeight      = "window.height"
	prefKeepRunning = "window.keepRunning"
	defaultWidth    = 1200
	defaultHeight   = 780
)

// restoreWindow sizes the window as it was last closed.
func (d *Desktop) restoreWindow() {
	p := d.App.Preferences()
	w := p.FloatWithFallback(prefWidth, defaultWidth)
	h := p.FloatWithFallback(prefHeight, defaultHeight)
	d.Window.Resize(fyne.NewSize(float32(w), float32(h)))
	d.KeepRunning = p.BoolWithFallback(prefKeepRunning, false)
}

// saveWindow remembers the window size and the keep-running choice.
func (d *Desktop) saveWindow() {
	p := d.App.Preferences()
	size := d.Window.Canvas().Size()
	if size.Width > 0 && size.Height > 0 {
		p.SetFloat(prefWidth, float64(size.Width))
		p.SetFloat(prefHeight, float64(size.Height))
	}
	p.SetBool(prefKeepRunning, d.KeepRunning)
}
