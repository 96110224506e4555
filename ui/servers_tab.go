package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// ServersTab lists downstream servers and model endpoints and manages them.
type ServersTab struct {
	Rows      map[string]*ServerRow
	AddJSON   *widget.Button
	Import    *widget.Button
	Status    *widget.Label
	Summary   *widget.Label
	rowsBox   *fyne.Container
	backend   ServersBackend
	bridge    *bridge
	window    fyne.Window
	object    fyne.CanvasObject
	refreshed int
	// SignInStatus and SignInURL say how the last sign-in went and where
	// its browser was sent.
	SignInStatus, SignInURL string
}

func newServersTab(backend ServersBackend, br *bridge, w fyne.Window) *ServersTab {
	t := &ServersTab{Rows: map[string]*ServerRow{}, rowsBox: container.NewVBox(),
		Status: widget.NewLabel(""), Summary: widget.NewLabel("Loading…"),
		backend: backend, bridge: br, window: w}
	t.AddJSON = widget.NewButtonWithIcon("Add from JSON…", theme.ContentAddIcon(), t.askJSON)
	t.Import = widget.NewButtonWithIcon("Import client config…", theme.FolderOpenIcon(), t.askImport)
	bar := container.NewHBox(t.AddJSON, t.Import, t.Summary)
	t.object = container.NewBorder(bar, t.Status, nil, nil, container.NewVScroll(t.rowsBox))
	return t
}

// refresh reads every server's status off the UI goroutine.
func (t *ServersTab) refresh() {
	fetch(t.bridge, t.backend.Servers, func(list []ServerInfo, err error) {
		if err != nil {
			t.Status.SetText("Could not read servers: " + err.Error())
			return
		}
		t.show(list)
	})
}

// show updates the rows in place, adding and dropping rows as needed.
func (t *ServersTab) show(list []ServerInfo) {
	t.refreshed++
	seen := map[string]bool{}
	rebuild := len(list) != len(t.Rows)
	for _, s := range list {
		seen[s.Name] = true
		row, ok := t.Rows[s.Name]
		if !ok {
			row = newServerRow(t)
			t.Rows[s.Name] = row
			rebuild = true
		}
		row.update(s)
	}
	for name := range t.Rows {
		if !seen[name] {
			delete(t.Rows, name)
		}
	}
	if rebuild {
		t.rowsBox.RemoveAll()
		for _, s := range list {
			t.rowsBox.Add(t.Rows[s.Name].object)
		}
	}
	t.Summary.SetText(summarizeServers(list))
}

func summarizeServers(list []ServerInfo) string {
	var ready, servers, models, tools int
	for _, s := range list {
		if s.Kind == "model" {
			models++
		} else {
			servers++
			tools += s.Tools
		}
		if s.Health == HealthOK {
			ready++
		}
	}
	return fmt.Sprintf("%d servers, %d models, %d tools — %d of %d healthy", servers, models, tools, ready, len(list))
}

// askJSON asks for an mcpServers snippet and adds its servers.
func (t *ServersTab) askJSON() {
	entry := widget.NewMultiLineEntry()
	entry.SetPlaceHolder(`{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}`)
	entry.SetMinRowsVisible(8)
	dialog.ShowForm("Add servers from JSON", "Add", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Snippet", entry)}, func(ok bool) {
			if ok {
				t.addJSON(entry.Text)
			}
		}, t.window)
}

func (t *ServersTab) addJSON(snippet string) {
	t.Status.SetText("Adding…")
	fetch(t.bridge, func(ctx contextT) ([]string, error) { return t.backend.AddServersJSON(ctx, snippet) },
		t.added)
}

// askImport picks a client config file and imports its servers.
func (t *ServersTab) askImport() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		_ = r.Close()
		t.importFile(path)
	}, t.window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".json", ".jsonc"}))
	d.Show()
}

func (t *ServersTab) importFile(path string) {
	t.Status.SetText("Importing " + path + "…")
	fetch(t.bridge, func(ctx contextT) ([]string, error) { return t.backend.ImportClientConfig(ctx, path) },
		t.added)
}

func (t *ServersTab) added(names []string, err error) {
	if err != nil {
		t.Status.SetText("Not added: " + err.Error())
		return
	}
	t.Status.SetText(fmt.Sprintf("Added %d: %s", len(names), strings.Join(names, ", ")))
	t.refresh()
}
