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
	keep := d.keepRunningItem()
	show := fyne.NewMenuItem("Show toolhub", func() { d.Window.Show(); d.Window.RequestFocus() })
	runs := fyne.NewMenuItem("Runs", func() { d.Window.Show(); d.Select(TabRuns) })
	quit := fyne.NewMenuItem("Quit", d.quit)
	quit.IsQuit = true
	return fyne.NewMenu("toolhub", show, runs, fyne.NewMenuItemSeparator(), keep, quit)
}

// keepRunningItem is a "Keep running in background" menu item; the tray's
// and the View menu's show the same choice. Without a tray (no D-Bus on
// Linux) the View menu's is the way to it, and a second start of the app
// shows the hidden window again.
func (d *Desktop) keepRunningItem() *fyne.MenuItem {
	item := fyne.NewMenuItem("Keep running in background", d.toggleKeepRunning)
	item.Checked = d.KeepRunning
	d.keepItems = append(d.keepItems, item)
	return item
}

// toggleKeepRunning switches and remembers the keep-running choice.
func (d *Desktop) toggleKeepRunning() {
	d.KeepRunning = !d.KeepRunning
	for _, item := range d.keepItems {
		item.Checked = d.KeepRunning
	}
	d.saveWindow()
}
