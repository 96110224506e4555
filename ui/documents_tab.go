package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// DocumentsTab adds folders, ingests them with a progress bar, shows the
// index's figures and searches it.
type DocumentsTab struct {
	Folders   *widget.Label
	AddFolder *widget.Button
	Ingest    *widget.Button
	Cancel    *widget.Button
	Progress  *widget.ProgressBar
	Current   *widget.Label
	// CopyDetails copies the full text behind the last failure shown.
	CopyDetails *widget.Button
	Stats       *widget.Label
	Query       *widget.Entry
	Results     *fyne.Container

	folders   []string
	ingesting bool
	// cancelled: the user cancelled the ingest in progress.
	cancelled bool
	line      *statusLine
	cancel    context.CancelFunc
	backend   DocumentsBackend
	bridge    *bridge
	window    fyne.Window
	object    fyne.CanvasObject
}

func newDocumentsTab(backend DocumentsBackend, br *bridge, a fyne.App, w fyne.Window) *DocumentsTab {
	line := newStatusLine(a, "")
	t := &DocumentsTab{Folders: widget.NewLabel("No folders yet"), Progress: widget.NewProgressBar(),
		Current: line.Label, CopyDetails: line.CopyDetails, line: line, Stats: widget.NewLabel("Index: loading…"),
		Query: widget.NewEntry(), Results: container.NewVBox(), backend: backend, bridge: br, window: w}
	t.Folders.Wrapping = fyne.TextWrapWord
	t.AddFolder = widget.NewButtonWithIcon("Add folder…", theme.FolderNewIcon(), t.askFolder)
	t.Ingest = widget.NewButtonWithIcon("Ingest", theme.UploadIcon(), t.StartIngest)
	t.Cancel = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), t.CancelIngest)
	t.Cancel.Disable()
	t.Progress.Hide()
	t.Query.SetPlaceHolder("Search your documents…")
	t.Query.OnSubmitted = func(string) { t.search() }
	search := widget.NewButtonWithIcon("Search", theme.SearchIcon(), t.search)
	top := widget.NewCard("Folders", "", container.NewVBox(t.Folders,
		container.NewHBox(t.AddFolder, t.Ingest, t.Cancel), t.Progress, line.object, t.Stats))
	bar := container.NewBorder(nil, nil, nil, search, t.Query)
	t.object = container.NewBorder(container.NewVBox(top, bar), nil, nil, nil, container.NewVScroll(t.Results))
	return t
}

// load reads the configured roots and the index figures.
func (t *DocumentsTab) load() {
	fetch(t.bridge, t.backend.DocumentRoots, func(roots []string, err error) {
		if err == nil {
			for _, r := range roots {
				t.addFolder(r)
			}
		}
	})
	t.loadStats()
}

func (t *DocumentsTab) loadStats() {
	fetch(t.bridge, t.backend.IndexStats, func(s IndexStats, err error) {
		if err != nil {
			t.Stats.SetText("Index: " + plain(err).sentence())
			return
		}
		t.Stats.SetText(describeStats(s))
	})
}

func describeStats(s IndexStats) string {
	emb := "embedder: none (BM25 keyword search)"
	if s.Embedder != "" {
		emb = "embedder: " + s.Embedder
	}
	if s.Documents < 0 {
		return "Index: figures not reported by this hub · " + emb
	}
	return fmt.Sprintf("Index: %s, %s, %.1f MB · %s", Plural(s.Documents, "document", "documents"), Plural(s.Chunks, "chunk", "chunks"), float64(s.Bytes)/1e6, emb)
}

func (t *DocumentsTab) askFolder() {
	dialog.ShowFolderOpen(func(u fyne.ListableURI, err error) {
		if err == nil && u != nil {
			t.addFolder(u.Path())
		}
	}, t.window)
}

// addFolder adds path to the folders to ingest.
func (t *DocumentsTab) addFolder(path string) {
	if path == "" || slices.Contains(t.folders, path) {
		return
	}
	t.folders = append(t.folders, path)
	t.Folders.SetText(Plural(len(t.folders), "folder", "folders") + ": " + joinLines(t.folders))
}

// StartIngest indexes the folders; the work and its progress run off the
// UI goroutine.
func (t *DocumentsTab) StartIngest() {
	if t.ingesting || len(t.folders) == 0 {
		if len(t.folders) == 0 {
			t.line.say("Add a folder first")
		}
		return
	}
	t.ingesting, t.cancelled = true, false
	t.Ingest.Disable()
	t.Cancel.Enable()
	t.Progress.SetValue(0)
	t.Progress.Show()
	t.line.say("Scanning…")
	ctx, cancel := t.bridge.cancellable()
	t.cancel = cancel
	paths := slices.Clone(t.folders)
	progress := newThrottle(t.bridge, t.showProgress)
	go func() {
		defer cancel()
		sum, err := t.backend.Ingest(ctx, paths, progress.offer)
		progress.flush()
		t.bridge.onUI(func() { t.ingested(sum, err) })
	}()
}

// CancelIngest stops a running ingest.
func (t *DocumentsTab) CancelIngest() {
	if t.ingesting && t.cancel != nil {
		t.cancelled = true
		t.line.say("Cancelling…")
		t.cancel()
	}
}

func (t *DocumentsTab) showProgress(p IngestProgress) {
	if p.Total > 0 {
		t.Progress.SetValue(float64(p.Done) / float64(p.Total))
	}
	if p.Total == 0 {
		t.Current.SetText("Working… " + p.Path)
		return
	}
	t.Current.SetText(fmt.Sprintf("%d / %d  %s", p.Done, p.Total, p.Path))
}

func (t *DocumentsTab) ingested(s IngestSummary, err error) {
	t.ingesting = false
	t.Ingest.Enable()
	t.Cancel.Disable()
	switch {
	case err != nil && t.cancelled:
		t.line.say(fmt.Sprintf("Ingest cancelled after %s; what was indexed stays in the index.",
			Plural(s.Indexed, "new or changed file", "new or changed files")))
	case err != nil:
		t.line.fail("Ingest stopped.", err)
	default:
		t.Progress.SetValue(1)
		t.line.say(fmt.Sprintf("Done: %d new or changed, %d unchanged, %d removed, %d skipped, %d failed (%s)",
			s.Indexed, s.Unchanged, s.Removed, s.Skipped, s.Failed, Plural(s.Chunks, "chunk", "chunks")))
	}
	t.loadStats()
}

// Search shows the passages matching query.
func (t *DocumentsTab) Search(query string) {
	t.Query.SetText(query)
	t.search()
}

func (t *DocumentsTab) search() {
	q := t.Query.Text
	if q == "" {
		return
	}
	fetch(t.bridge, func(ctx contextT) ([]SearchHit, error) { return t.backend.Search(ctx, q, 10) },
		func(hits []SearchHit, err error) { t.showHits(q, hits, err) })
}

func (t *DocumentsTab) showHits(q string, hits []SearchHit, err error) {
	t.Results.RemoveAll()
	if err != nil {
		t.line.fail("Search failed.", err)
		t.Results.Add(widget.NewLabel(t.Current.Text))
		return
	}
	if len(hits) == 0 {
		t.Results.Add(widget.NewLabel(fmt.Sprintf("Nothing matches %q", q)))
		return
	}
	for i, h := range hits {
		where := h.Path
		if h.Heading != "" {
			where += " › " + h.Heading
		}
		title := widget.NewLabel(fmt.Sprintf("%d. %s  (score %.3f)", i+1, where, h.Score))
		title.TextStyle.Bold = true
		snippet := widget.NewRichText(snippetSegments(h.Snippet)...)
		snippet.Wrapping = fyne.TextWrapWord
		t.Results.Add(container.NewVBox(title, snippet, widget.NewSeparator()))
	}
}

// snippetSegments shows a snippet's **matched words** in bold and every
// other character as plain text (snippets are document text, not markdown).
func snippetSegments(snippet string) []widget.RichTextSegment {
	parts := strings.Split(snippet, "**")
	segs := make([]widget.RichTextSegment, 0, len(parts))
	for i, p := range parts {
		if p == "" {
			continue
		}
		style := widget.RichTextStyleInline
		if i%2 == 1 {
			style = widget.RichTextStyleStrong
		}
		segs = append(segs, &widget.TextSegment{Text: p, Style: style})
	}
	return segs
}
