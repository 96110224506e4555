package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// InstallTray adds the system tray icon with its menu when the platform has
// one, and reports whether it did.
func (d *Desktop) InstallTray() bool {
	desk, ok := d.App.(desktop.App)
	if !ok {
		return false
	}
	desk.SetSystemTrayMenu(d.trayMenu())
	return true
}

func (d *Desktop) trayMenu() *fyne.Menu {
	keep := fyne.NewMenuItem("Keep running in background", nil)
	keep.Checked = d.KeepRunning
	keep.Action = func() {
		d.KeepRunning = !d.KeepRunning
		keep.Checked = d.KeepRunning
		d.saveWindow()
	}
	show := fyne.NewMenuItem("Show toolhub", func() { d.Window.Show(); d.Window.RequestFocus() })
	runs := fyne.NewMenuItem("Runs", func() { d.Window.Show(); d.Select(TabRuns) })
	quit := fyne.NewMenuItem("Quit", func() { d.Stop(); d.App.Quit() })
	quit.IsQuit = true
	return fyne.NewMenu("toolhub", show, runs, fyne.NewMenuItemSeparator(), keep, quit)
}
