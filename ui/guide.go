package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// prefGuideDone remembers that the first-run guide was finished or closed,
// so that it opens by itself only once.
const prefGuideDone = "guide.done"

// Guide pages, in order.
const (
	GuideModel = iota
	GuideServers
	GuideDocuments
)

// Guide walks a new user through connecting a model, adding servers and
// picking a documents folder; every page can be skipped, and each writes
// the config as the rest of the app does. Help ▸ Setup guide opens it again.
type Guide struct {
	Page  int
	Title *widget.Label
	Back  *widget.Button
	Next  *widget.Button // "Skip" until the page's work is done; "Finish" last
	Model *guideModel

	// Folder picks a documents folder and starts indexing it.
	Folder       *widget.Button
	FolderResult *widget.Label
	// FindServers lists the servers of the other MCP clients found here,
	// with checkboxes, to import; OpenServers shows the Servers tab.
	FindServers *widget.Button
	OpenServers *widget.Button

	d      *Desktop
	pages  []fyne.CanvasObject
	body   *fyne.Container
	dialog *dialog.CustomDialog
	done   []bool // a page's work was done: Next says "Next", not "Skip"
	open   bool
}

var guideTitles = []string{"1 of 3 · Connect the orchestrator model", "2 of 3 · Add your MCP servers", "3 of 3 · Pick a documents folder"}

func newGuide(d *Desktop) *Guide {
	g := &Guide{d: d, Title: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		FolderResult: widget.NewLabel(""), done: make([]bool, len(guideTitles))}
	g.Model = newGuideModel(d.backend, d.bridge, func() { g.markDone(GuideModel) })
	g.Folder = widget.NewButton("Choose a folder…", g.askFolder)
	g.FindServers = widget.NewButton("Find the servers Claude Desktop, Cursor and VS Code use…", func() {
		d.Servers.askImport()
		g.markDone(GuideServers)
	})
	g.FindServers.Importance = widget.HighImportance
	g.OpenServers = widget.NewButton("Open the Servers tab", func() { g.close(); d.Select(TabServers) })
	g.FolderResult.Wrapping = fyne.TextWrapWord
	g.pages = []fyne.CanvasObject{g.Model.object, g.serversPage(), g.documentsPage()}
	g.body = container.NewStack(g.pages...)
	g.Back = widget.NewButton("Back", func() { g.show(g.Page - 1) })
	g.Next = widget.NewButton("Skip", g.next)
	g.Next.Importance = widget.HighImportance
	content := container.NewBorder(g.Title, container.NewBorder(nil, nil, g.Back, g.Next), nil, nil, g.body)
	g.dialog = dialog.NewCustomWithoutButtons("Set up toolhub", content, d.Window)
	g.dialog.SetOnClosed(func() {
		g.open = false
		d.App.Preferences().SetBool(prefGuideDone, true)
	})
	return g
}

func (g *Guide) serversPage() fyne.CanvasObject {
	text := widget.NewLabel("toolhub serves your MCP servers to every client through one endpoint. " +
		"Tick the servers your other apps already use to bring them here; on the Servers tab, Add takes " +
		"the JSON a server's README shows. Servers start as soon as they are added.")
	text.Wrapping = fyne.TextWrapWord
	return container.NewVBox(text, g.FindServers, g.OpenServers)
}

func (g *Guide) documentsPage() fyne.CanvasObject {
	text := widget.NewLabel("Documents in this folder are indexed on this machine and never leave it; " +
		"MCP clients and the orchestrator search them with search_documents.")
	text.Wrapping = fyne.TextWrapWord
	return container.NewVBox(text, g.Folder, g.FolderResult)
}

// Open shows the guide at its first page.
func (g *Guide) Open() {
	g.show(GuideModel)
	g.dialog.Resize(fyne.NewSize(680, 460))
	g.dialog.Show()
	g.open = true
	g.Model.load()
}

// show turns to page i.
func (g *Guide) show(i int) {
	i = max(0, min(i, len(g.pages)-1))
	g.Page = i
	for j, p := range g.pages {
		if j == i {
			p.Show()
		} else {
			p.Hide()
		}
	}
	g.Title.SetText(guideTitles[i])
	g.Back.Disable()
	if i > 0 {
		g.Back.Enable()
	}
	g.updateNext()
}

func (g *Guide) updateNext() {
	switch {
	case g.Page == len(g.pages)-1:
		g.Next.SetText("Finish")
	case g.done[g.Page]:
		g.Next.SetText("Next")
	default:
		g.Next.SetText("Skip")
	}
}

func (g *Guide) markDone(page int) {
	g.done[page] = true
	g.updateNext()
}

func (g *Guide) next() {
	if g.Page == len(g.pages)-1 {
		g.close()
		return
	}
	g.show(g.Page + 1)
}

func (g *Guide) close() { g.dialog.Hide() }

// Visible reports whether the guide is open.
func (g *Guide) Visible() bool { return g.open }

func (g *Guide) askFolder() {
	dialog.ShowFolderOpen(func(u fyne.ListableURI, err error) {
		if err == nil && u != nil {
			g.UseFolder(u.Path())
		}
	}, g.d.Window)
}

// UseFolder adds path to the document folders and starts indexing it on
// the Documents tab.
func (g *Guide) UseFolder(path string) {
	g.d.Documents.addFolder(path)
	g.d.Documents.StartIngest()
	g.FolderResult.SetText("Indexing " + path + " — the Documents tab shows the progress.")
	g.markDone(GuideDocuments)
}
