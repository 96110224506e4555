package ui

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
)

// ImportDialog lists the servers of the other MCP clients found on this
// machine, each with a checkbox, and imports the ticked ones.
type ImportDialog struct {
	// Picks are the checkboxes by config path, then server name.
	Picks      map[string]map[string]*widget.Check
	Import     *widget.Button
	ChooseFile *widget.Button
	Cancel     *widget.Button
	Note       *widget.Label

	list   *fyne.Container
	tab    *ServersTab
	dialog dialog.Dialog
}

// askImport opens the import dialog and fills it with what discovery finds.
func (t *ServersTab) askImport() {
	d := &ImportDialog{Picks: map[string]map[string]*widget.Check{}, Note: widget.NewLabel("Looking for other apps' servers…"),
		list: container.NewVBox(), tab: t}
	d.Note.Wrapping = fyne.TextWrapWord
	d.Import = widget.NewButton("Import ticked servers", d.importPicked)
	d.Import.Importance = widget.HighImportance
	d.Import.Disable()
	d.ChooseFile = widget.NewButton("Choose a file…", d.chooseFile)
	d.Cancel = widget.NewButton("Cancel", func() { d.dialog.Hide() })
	body := container.NewBorder(d.Note, container.NewHBox(d.ChooseFile, d.Cancel, d.Import), nil, nil,
		container.NewVScroll(d.list))
	d.dialog = dialog.NewCustomWithoutButtons("Import servers from another app", body, t.window)
	d.dialog.Resize(jsonDialogSize)
	t.Importer = d
	fetch(t.bridge, t.backend.ClientConfigs, d.show)
	d.dialog.Show()
}

// show lists each config file with a checkbox per server; servers already
// in the list are shown but cannot be ticked.
func (d *ImportDialog) show(found []ClientConfig, err error) {
	if err != nil {
		d.Note.SetText(plain(err).sentence())
		return
	}
	if len(found) == 0 {
		d.Note.SetText("No other MCP app's config was found on this computer. Choose its file instead.")
		return
	}
	d.Note.SetText("Tick the servers to bring over. They start as soon as they are imported.")
	for _, c := range found {
		head := widget.NewLabel(c.Client + " — " + c.Path)
		head.TextStyle.Bold = true
		d.list.Add(head)
		if c.Problem != "" {
			d.list.Add(widget.NewLabel("Cannot be read: " + c.Problem))
			continue
		}
		d.Picks[c.Path] = map[string]*widget.Check{}
		for _, name := range c.Servers {
			check := widget.NewCheck(name, func(bool) { d.updateButton() })
			if _, have := d.tab.Rows[name]; have {
				check.Text = name + " (already added)"
				check.Disable()
			}
			d.Picks[c.Path][name] = check
			d.list.Add(check)
		}
	}
	d.list.Refresh()
}

// picked is the ticked servers by config path.
func (d *ImportDialog) picked() map[string][]string {
	out := map[string][]string{}
	for path, checks := range d.Picks {
		for name, c := range checks {
			if c.Checked && !c.Disabled() {
				out[path] = append(out[path], name)
			}
		}
	}
	return out
}

func (d *ImportDialog) updateButton() {
	if len(d.picked()) > 0 {
		d.Import.Enable()
	} else {
		d.Import.Disable()
	}
}

// importPicked imports the ticked servers, file by file.
func (d *ImportDialog) importPicked() {
	picks := d.picked()
	d.Import.Disable()
	d.Note.SetText("Importing…")
	fetch(d.tab.bridge, func(ctx contextT) (AddResult, error) {
		var all AddResult
		for path, names := range picks {
			res, err := d.tab.backend.ImportServers(ctx, path, names)
			all.Added, all.Skipped = append(all.Added, res.Added...), append(all.Skipped, res.Skipped...)
			all.SecretsMoved = append(all.SecretsMoved, res.SecretsMoved...)
			if err != nil {
				return all, err
			}
		}
		return all, nil
	}, d.imported)
}

func (d *ImportDialog) imported(res AddResult, err error) {
	switch {
	case err != nil:
		d.Note.SetText(plain(err).sentence())
		d.Import.Enable()
	case len(res.Added) == 0:
		d.Note.SetText(joinSentences("Nothing was imported.", joinSentences(res.Skipped...)))
	default:
		d.dialog.Hide()
		d.tab.added(res)
	}
}

// chooseFile picks a client config file, starting in the folder where
// apps keep their settings (~/.config on Linux), so that a hidden folder
// need not be found first.
func (d *ImportDialog) chooseFile() {
	fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		_ = r.Close()
		d.Note.SetText("Importing " + path + "…")
		fetch(d.tab.bridge, func(ctx contextT) (AddResult, error) { return d.tab.backend.ImportServers(ctx, path, nil) },
			d.imported)
	}, d.tab.window)
	fd.SetFilter(storage.NewExtensionFileFilter([]string{".json", ".jsonc"}))
	if dir, err := os.UserConfigDir(); err == nil {
		if uri, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			fd.SetLocation(uri)
		}
	}
	fd.Resize(jsonDialogSize)
	fd.Show()
}

// ConfirmRemove asks before a server is removed.
type ConfirmRemove struct {
	Name   string
	Yes    *widget.Button
	No     *widget.Button
	dialog dialog.Dialog
}

// askRemove asks, then removes name from the config and stops it.
func (t *ServersTab) askRemove(name string) {
	c := &ConfirmRemove{Name: name}
	c.Yes = widget.NewButton("Remove", func() {
		c.dialog.Hide()
		t.say("Removing " + name + "…")
		act(t.bridge, func(ctx contextT) error { return t.backend.RemoveServer(ctx, name) }, func(err error) {
			if err != nil {
				t.fail("Could not remove "+name+".", err)
			} else {
				t.say("Removed " + name + ". It has been stopped and taken out of your config file.")
			}
			t.refresh()
		})
	})
	c.Yes.Importance = widget.DangerImportance
	c.No = widget.NewButton("Keep it", func() { c.dialog.Hide() })
	msg := widget.NewLabel("Remove " + name + "? It stops now and leaves your config file.")
	c.dialog = dialog.NewCustomWithoutButtons("Remove server", container.NewVBox(msg, container.NewHBox(c.No, c.Yes)), t.window)
	t.Confirm = c
	c.dialog.Show()
}
