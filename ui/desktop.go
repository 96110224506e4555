package ui

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Options tune the desktop. The zero value is what the app uses.
type Options struct {
	// Post runs a function on the UI goroutine; nil means fyne.Do. Tests
	// pass a Queue's Post.
	Post func(func())
	// ProbeEvery is how often the orchestrator model's health is probed
	// (default 20s); everything else is pushed by the backend.
	ProbeEvery time.Duration
	// CallTimeout bounds one backend call (not runs or ingests).
	CallTimeout time.Duration
	// Title is the window title (default "toolhub").
	Title string
}

// Tab titles, in order.
const (
	TabPreferences = "Preferences"
	TabServers     = "Servers and models"
	TabDocuments   = "Documents"
	TabRuns        = "Runs"
)

// Desktop is the toolhub window: a header over four tabs.
type Desktop struct {
	App       fyne.App
	Window    fyne.Window
	Header    *Header
	Prefs     *PreferencesTab
	Servers   *ServersTab
	Documents *DocumentsTab
	Runs      *RunsTab
	Guide     *Guide
	Tabs      *container.AppTabs
	// KeepRunning hides the window on close instead of quitting.
	KeepRunning bool

	opts      Options
	backend   Backend
	bridge    *bridge
	keepItems []*fyne.MenuItem // the menu items showing KeepRunning

	quitOnce sync.Once
	quitting chan struct{} // closed once the app is asked to quit
}

// New builds the window over b. Nothing is loaded until Start.
func New(a fyne.App, b Backend, opts Options) *Desktop {
	if opts.ProbeEvery <= 0 {
		opts.ProbeEvery = defaultProbeEvery
	}
	if opts.Title == "" {
		opts.Title = "toolhub"
	}
	d := &Desktop{App: a, opts: opts, backend: b, bridge: newBridge(opts.Post, opts.CallTimeout),
		quitting: make(chan struct{})}
	d.Window = a.NewWindow(opts.Title)
	d.Header = newHeader(a, b, d.bridge)
	d.Prefs = newPreferencesTab(b, d.bridge, d.Header.setPrivacy)
	d.Servers = newServersTab(b, d.bridge, a, d.Window)
	d.Documents = newDocumentsTab(b, d.bridge, a, d.Window)
	d.Runs = newRunsTab(b, d.bridge, a)
	d.Tabs = container.NewAppTabs(
		container.NewTabItemWithIcon(TabPreferences, theme.SettingsIcon(), d.Prefs.object),
		container.NewTabItemWithIcon(TabServers, theme.ComputerIcon(), d.Servers.object),
		container.NewTabItemWithIcon(TabDocuments, theme.DocumentIcon(), d.Documents.object),
		container.NewTabItemWithIcon(TabRuns, theme.MediaPlayIcon(), d.Runs.object),
	)
	d.Window.SetContent(container.NewBorder(d.Header.object, nil, nil, nil, d.Tabs))
	d.Guide = newGuide(d)
	d.restoreWindow()
	d.addShortcuts()
	d.Window.SetCloseIntercept(d.closeRequested)
	return d
}

// Start loads every tab, follows the backend's changes and probes the
// orchestrator's health now and then.
func (d *Desktop) Start() {
	d.Header.load()
	d.Prefs.load()
	d.Servers.refresh()
	d.Documents.load()
	d.Runs.load()
	d.openGuideOnFirstRun()
	d.bridge.follow(d.backend.Changes, func(c Change) { d.bridge.onUI(func() { d.changed(c) }) })
	d.bridge.every(d.opts.ProbeEvery, func() { d.bridge.onUI(d.Header.probe) })
}

// openGuideOnFirstRun opens the setup guide when nothing is configured yet
// and the guide was never finished or closed.
func (d *Desktop) openGuideOnFirstRun() {
	if d.App.Preferences().Bool(prefGuideDone) {
		return
	}
	fetch(d.bridge, func(ctx contextT) (SetupState, error) { return d.backend.SetupState(ctx) },
		func(s SetupState, err error) {
			if err == nil && !s.ModelConfigured && s.Servers == 0 {
				d.Guide.Open()
			}
		})
}

// changed brings the tabs that show c up to date; on the UI goroutine.
func (d *Desktop) changed(c Change) {
	switch c {
	case ChangeServers:
		d.Servers.refresh()
		d.Prefs.refreshPreview()
	case ChangePreferences:
		d.Prefs.followSaved()
	case ChangeRuns:
		d.Runs.History.reload()
	}
}

// Select shows the tab with the given title.
func (d *Desktop) Select(title string) {
	for _, item := range d.Tabs.Items {
		if item.Text == title {
			d.Tabs.Select(item)
		}
	}
}

// Reveal shows the window, hidden or not, in front; on the UI goroutine.
func (d *Desktop) Reveal() {
	d.Window.Show()
	d.Window.RequestFocus()
}

// Quit stops the desktop and the app; safe from any goroutine.
func (d *Desktop) Quit() { d.bridge.onUI(d.quit) }

// Quitting is closed once the app has been asked to quit (from the window,
// the tray or Quit): the app's run loop should end soon after.
func (d *Desktop) Quitting() <-chan struct{} { return d.quitting }

// quit stops the desktop and asks the app to quit; on the UI goroutine.
func (d *Desktop) quit() {
	d.Stop()
	d.quitOnce.Do(func() { close(d.quitting) })
	d.App.Quit()
}

// Stop cancels backend calls and polling.
func (d *Desktop) Stop() { d.bridge.close() }

// closeRequested hides the window when KeepRunning is set, else quits.
func (d *Desktop) closeRequested() {
	d.saveWindow()
	if d.KeepRunning {
		d.Window.Hide()
		return
	}
	d.quit()
}
