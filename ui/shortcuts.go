package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// Shortcut is a keyboard shortcut of a main action, with Ctrl (Cmd on macOS).
type Shortcut struct {
	Key    fyne.KeyName
	Action string
	Menu   string // the main menu holding it
}

// Shortcuts lists the keyboard shortcuts.
var Shortcuts = []Shortcut{
	{fyne.Key1, "Preferences", "View"},
	{fyne.Key2, "Servers and models", "View"},
	{fyne.Key3, "Documents", "View"},
	{fyne.Key4, "Runs", "View"},
	{fyne.KeyR, "Refresh servers and health", "View"},
	{fyne.KeyReturn, "Run the typed task", "Run"},
	{fyne.KeyPeriod, "Cancel the running task (on the Documents tab: the ingest)", "Run"},
	{fyne.KeyI, "Ingest the document folders", "Run"},
	{fyne.KeyF, "Search past runs", "Run"},
}

// shortcutActions maps each shortcut's key to what it does.
func (d *Desktop) shortcutActions() map[fyne.KeyName]func() {
	return map[fyne.KeyName]func(){
		fyne.Key1:      func() { d.Select(TabPreferences) },
		fyne.Key2:      func() { d.Select(TabServers) },
		fyne.Key3:      func() { d.Select(TabDocuments) },
		fyne.Key4:      func() { d.Select(TabRuns) },
		fyne.KeyR:      func() { d.Servers.refresh(); d.Header.probe() },
		fyne.KeyReturn: func() { d.Select(TabRuns); d.Runs.StartRun() },
		fyne.KeyPeriod: d.cancelShown,
		fyne.KeyI:      func() { d.Select(TabDocuments); d.Documents.StartIngest() },
		fyne.KeyF:      func() { d.Select(TabRuns); d.Window.Canvas().Focus(d.Runs.History.Search) },
	}
}

// addShortcuts puts every shortcut in the main menu, which the window
// consults first whatever has the focus (a text box included), and on the
// canvas for when the window has no menu bar.
func (d *Desktop) addShortcuts() {
	actions := d.shortcutActions()
	menus := map[string]*fyne.Menu{"View": fyne.NewMenu("View"), "Run": fyne.NewMenu("Run")}
	for _, s := range Shortcuts {
		action := actions[s.Key]
		sc := &desktop.CustomShortcut{KeyName: s.Key, Modifier: fyne.KeyModifierShortcutDefault}
		d.Window.Canvas().AddShortcut(sc, func(fyne.Shortcut) { action() })
		item := fyne.NewMenuItem(s.Action, action)
		item.Shortcut = sc
		menus[s.Menu].Items = append(menus[s.Menu].Items, item)
	}
	menus["View"].Items = append(menus["View"].Items, fyne.NewMenuItemSeparator(), d.keepRunningItem())
	help := fyne.NewMenu("Help", fyne.NewMenuItem("Setup guide", d.Guide.Open))
	d.Window.SetMainMenu(fyne.NewMainMenu(menus["View"], menus["Run"], help))
}

// cancelShown cancels the work of the tab in view: the ingest on the
// Documents tab, the running task anywhere else.
func (d *Desktop) cancelShown() {
	if item := d.Tabs.Selected(); item != nil && item.Text == TabDocuments {
		d.Documents.CancelIngest()
		return
	}
	d.Runs.CancelRun()
}
