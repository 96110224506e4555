package ui

import (
	"fmt"
	"sort"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ServersTab lists the configured servers (those in trouble first), then
// toolhub's own tools and the model endpoints, and adds, edits and removes
// servers; every change applies at once.
type ServersTab struct {
	Rows    map[string]*ServerRow
	AddJSON *widget.Button
	Import  *widget.Button
	Status  *widget.Label
	// CopyDetails copies the full text behind the last error shown.
	CopyDetails *widget.Button
	Summary     *widget.Label
	// Empty is shown instead of the list while no server is configured.
	Empty       *fyne.Container
	EmptyAdd    *widget.Button
	EmptyImport *widget.Button
	// BuiltinHeader and ModelHeader title their sections.
	BuiltinHeader *widget.Label
	ModelHeader   *widget.Label
	// JSON and Importer are the dialogs last opened (nil before).
	JSON     *JSONDialog
	Importer *ImportDialog
	Confirm  *ConfirmRemove

	serversBox, builtinBox, modelBox *fyne.Container
	line                             *statusLine
	backend                          ServersBackend
	bridge                           *bridge
	window                           fyne.Window
	app                              fyne.App
	object                           fyne.CanvasObject
	refreshed                        int
	expand                           string // the server whose tools show as soon as its row does
	// SignInStatus and SignInURL say how the last sign-in went and where
	// its browser was sent.
	SignInStatus, SignInURL string
}

func newServersTab(backend ServersBackend, br *bridge, a fyne.App, w fyne.Window) *ServersTab {
	line := newStatusLine(a, "")
	t := &ServersTab{Rows: map[string]*ServerRow{}, Status: line.Label, CopyDetails: line.CopyDetails, line: line,
		Summary:    widget.NewLabel("Loading…"),
		serversBox: container.NewVBox(), builtinBox: container.NewVBox(), modelBox: container.NewVBox(),
		BuiltinHeader: widget.NewLabel("toolhub's own tools"), ModelHeader: widget.NewLabel("Models"),
		backend: backend, bridge: br, window: w, app: a}
	t.Status.Truncation, t.Status.Wrapping = fyne.TextTruncateOff, fyne.TextWrapWord
	t.BuiltinHeader.TextStyle.Bold, t.ModelHeader.TextStyle.Bold = true, true
	t.AddJSON = widget.NewButtonWithIcon("Add from JSON…", theme.ContentAddIcon(), t.askJSON)
	t.Import = widget.NewButtonWithIcon("Import from another app…", theme.FolderOpenIcon(), t.askImport)
	t.EmptyAdd = widget.NewButtonWithIcon("Add from JSON…", theme.ContentAddIcon(), t.askJSON)
	t.EmptyImport = widget.NewButtonWithIcon("Import from another app…", theme.FolderOpenIcon(), t.askImport)
	hint := widget.NewLabel("Paste a server's JSON from its README, or bring over the servers you set up in Claude Desktop, Cursor or VS Code.")
	hint.Wrapping = fyne.TextWrapWord
	title := widget.NewLabel("No servers yet")
	title.TextStyle.Bold = true
	t.Empty = container.NewVBox(title, hint, container.NewHBox(t.EmptyAdd, t.EmptyImport))
	t.Empty.Hide()
	list := container.NewVBox(t.Empty, t.serversBox, t.BuiltinHeader, t.builtinBox, t.ModelHeader, t.modelBox)
	t.Summary.Wrapping = fyne.TextWrapWord
	bar := container.NewVBox(container.NewHBox(t.AddJSON, t.Import), t.Summary)
	t.object = container.NewBorder(bar, line.object, nil, nil, container.NewVScroll(list))
	return t
}

// refresh reads every server's status off the UI goroutine.
func (t *ServersTab) refresh() {
	fetch(t.bridge, t.backend.Servers, func(list []ServerInfo, err error) {
		if err != nil {
			t.fail("Could not read the servers.", err)
			return
		}
		t.show(list)
	})
}

// show updates the rows in place and puts them in their sections.
func (t *ServersTab) show(list []ServerInfo) {
	t.refreshed++
	seen := map[string]bool{}
	for _, s := range list {
		seen[s.Name] = true
		row, ok := t.Rows[s.Name]
		if !ok {
			row = newServerRow(t)
			t.Rows[s.Name] = row
			if s.Name == t.expand {
				row.ToolsBox.Show()
			}
		}
		row.update(s)
	}
	for name := range t.Rows {
		if !seen[name] {
			delete(t.Rows, name)
		}
	}
	sorted := sortedForShow(list)
	t.serversBox.Objects, t.builtinBox.Objects, t.modelBox.Objects = nil, nil, nil
	for _, s := range sorted {
		box := t.serversBox
		switch s.Kind {
		case KindBuiltin:
			box = t.builtinBox
		case KindModel:
			box = t.modelBox
		}
		box.Objects = append(box.Objects, t.Rows[s.Name].object)
	}
	for _, b := range []*fyne.Container{t.serversBox, t.builtinBox, t.modelBox} {
		b.Refresh()
	}
	showIf(t.Empty, len(t.serversBox.Objects) == 0)
	showIf(t.BuiltinHeader, len(t.builtinBox.Objects) > 0)
	showIf(t.ModelHeader, len(t.modelBox.Objects) > 0)
	t.Summary.SetText(summarizeServers(list))
}

// sortedForShow puts failed servers first, then the others by name.
func sortedForShow(list []ServerInfo) []ServerInfo {
	out := append([]ServerInfo(nil), list...)
	sort.SliceStable(out, func(i, j int) bool {
		fi, fj := out[i].Health == HealthFailed, out[j].Health == HealthFailed
		if fi != fj {
			return fi
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func showIf(o fyne.CanvasObject, visible bool) {
	if visible {
		o.Show()
	} else {
		o.Hide()
	}
}

func summarizeServers(list []ServerInfo) string {
	var ready, servers, models, tools int
	for _, s := range list {
		switch s.Kind {
		case KindModel:
			models++
		case KindServer:
			servers++
			tools += s.Tools
			if s.Health == HealthOK {
				ready++
			}
		}
	}
	text := Plural(servers, "server", "servers") + " with " + Plural(tools, "tool", "tools") + ", " + Plural(models, "model", "models")
	if servers > 0 {
		text += fmt.Sprintf(" — %d of %d ready", ready, servers)
	}
	return text
}

// say shows a message that needs no details.
func (t *ServersTab) say(text string) { t.line.say(text) }

// fail shows what went wrong in words, keeping the full text for "Copy
// details".
func (t *ServersTab) fail(lead string, err error) { t.line.fail(lead, err) }

// copy puts text on the clipboard.
func (t *ServersTab) copy(text string) {
	if t.app != nil {
		t.app.Clipboard().SetContent(text)
	}
}

// ExpandServer shows the named server's tools as soon as its row appears.
func (t *ServersTab) ExpandServer(name string) { t.expand = name }
