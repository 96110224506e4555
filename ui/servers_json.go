package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// jsonDialogSize is the Add from JSON dialog's size: room for a README's
// snippet without scrolling sideways.
var jsonDialogSize = fyne.NewSize(720, 540)

// jsonExample is shown in the empty editor.
const jsonExample = `{
  "mcpServers": {
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
  }
}`

// JSONDialog adds servers from pasted JSON, or edits one server's entry.
// It checks the text as it is typed and stays open, text kept, when the
// backend refuses it.
type JSONDialog struct {
	Entry *widget.Entry // the JSON, multi-line and monospace
	// Name is asked for when the JSON is one server without a name.
	Name    *widget.Entry
	Check   *widget.Label // what the text holds, or its first mistake
	OK      *widget.Button
	Cancel  *widget.Button
	Details *widget.Button // copies the full text of the last refusal

	editing string // the server being edited; "" when adding
	checks  int    // sequence of checks asked for; only the newest shows
	details string
	tab     *ServersTab
	dialog  dialog.Dialog
}

func newJSONDialog(t *ServersTab, editing string) *JSONDialog {
	j := &JSONDialog{Entry: widget.NewMultiLineEntry(), Name: widget.NewEntry(), Check: widget.NewLabel(""),
		editing: editing, tab: t}
	j.Entry.TextStyle.Monospace = true
	j.Entry.Wrapping = fyne.TextWrapOff
	j.Entry.SetPlaceHolder(jsonExample)
	j.Entry.OnChanged = func(string) { j.check() }
	j.Name.SetPlaceHolder("a name for this server, e.g. memory")
	j.Name.OnChanged = func(string) { j.check() }
	j.Name.Hide()
	j.Check.Wrapping = fyne.TextWrapWord
	title, verb := "Add servers from JSON", "Add"
	if editing != "" {
		title, verb = "Edit "+editing, "Save"
	}
	j.OK = widget.NewButton(verb, j.submit)
	j.OK.Importance = widget.HighImportance
	j.OK.Disable()
	j.Cancel = widget.NewButton("Cancel", func() { j.dialog.Hide() })
	j.Details = widget.NewButton("Copy details", func() { t.copy(j.details) })
	j.Details.Hide()
	help := widget.NewLabel(`Paste {"mcpServers": {...}}, VS Code's {"servers": {...}}, {"name": {...}} or one server's {"command": ...}.`)
	help.Wrapping = fyne.TextWrapWord
	top := container.NewVBox(help, j.Name)
	bottom := container.NewVBox(j.Check, container.NewHBox(j.Details, j.Cancel, j.OK))
	j.dialog = dialog.NewCustomWithoutButtons(title, container.NewBorder(top, bottom, nil, nil, j.Entry), t.window)
	j.dialog.Resize(jsonDialogSize)
	return j
}

// askJSON opens the dialog to add servers.
func (t *ServersTab) askJSON() {
	t.JSON = newJSONDialog(t, "")
	t.JSON.dialog.Show()
}

// askEdit opens the dialog on one configured server's entry.
func (t *ServersTab) askEdit(name string) {
	j := newJSONDialog(t, name)
	t.JSON = j
	j.Check.SetText("Loading " + name + "…")
	fetch(t.bridge, func(ctx contextT) (string, error) { return t.backend.ServerJSON(ctx, name) },
		func(text string, err error) {
			if err != nil {
				j.refused(err)
				return
			}
			j.Entry.SetText(text)
		})
	j.dialog.Show()
}

// check asks the backend what the text holds; only the newest answer is
// shown.
func (j *JSONDialog) check() {
	j.checks++
	seq, text, name := j.checks, j.Entry.Text, j.Name.Text
	j.OK.Disable()
	if text == "" {
		j.Check.SetText("")
		return
	}
	fetch(j.tab.bridge, func(ctx contextT) (SnippetCheck, error) {
		return j.tab.backend.CheckServersJSON(ctx, text, name)
	}, func(c SnippetCheck, err error) {
		if seq == j.checks {
			j.checked(c, err)
		}
	})
}

func (j *JSONDialog) checked(c SnippetCheck, err error) {
	switch {
	case err != nil:
		j.refused(err)
	case c.Problem != "":
		j.Check.SetText("Not yet: " + c.Problem)
	case c.NeedsName && j.editing == "":
		j.Name.Show()
		j.Check.SetText("This is one server: type a name for it above.")
	default:
		j.Check.SetText(joinSentences(checkedSentence(c.Names, j.editing), joinSentences(c.Warnings...)))
		j.OK.Enable()
	}
}

func checkedSentence(names []string, editing string) string {
	if editing != "" {
		return "Looks right."
	}
	return "Ready to add " + joinNames(names) + "."
}

// submit adds or saves; the dialog closes only when that worked.
func (j *JSONDialog) submit() {
	text, name := j.Entry.Text, j.Name.Text
	j.OK.Disable()
	j.Check.SetText("Saving…")
	if j.editing != "" {
		editing := j.editing
		act(j.tab.bridge, func(ctx contextT) error { return j.tab.backend.ReplaceServerJSON(ctx, editing, text) },
			func(err error) {
				if err != nil {
					j.refused(err)
					return
				}
				j.dialog.Hide()
				j.tab.say("Saved " + editing + ". It is restarting with the new settings.")
				j.tab.refresh()
			})
		return
	}
	fetch(j.tab.bridge, func(ctx contextT) (AddResult, error) { return j.tab.backend.AddServersJSON(ctx, text, name) },
		func(res AddResult, err error) {
			switch {
			case err != nil:
				j.refused(err)
			case len(res.Added) == 0:
				j.Check.SetText(joinSentences("Nothing was added.", joinSentences(res.Skipped...)))
			default:
				j.dialog.Hide()
				j.tab.added(res)
			}
		})
}

// refused shows why the backend said no, keeping the text and the dialog.
func (j *JSONDialog) refused(err error) {
	pe := plain(err)
	j.Check.SetText(pe.sentence())
	j.details = pe.Details
	showIf(j.Details, j.details != "")
	j.OK.Enable()
}

// added says in words what was added and that it is starting.
func (t *ServersTab) added(res AddResult) {
	starting := "It is starting now; its tools appear below when it is ready."
	if len(res.Added) > 1 {
		starting = "They are starting now; their tools appear below when they are ready."
	}
	moved := ""
	if n := len(res.SecretsMoved); n > 0 {
		moved = Plural(n, "secret was", "secrets were") + " moved into the secret store (" + joinNames(res.SecretsMoved) +
			"); the config refers to them as ${keychain:NAME}."
	}
	t.say(joinSentences("Added "+joinNames(res.Added)+".", starting, moved, joinSentences(res.Skipped...)))
	t.refresh()
}
