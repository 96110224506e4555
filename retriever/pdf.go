package retriever

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ledongthuc/pdf"
)

// pdfTimeout bounds the text extraction of one PDF.
const pdfTimeout = 30 * time.Second

// maxPDFPages bounds the pages read from one PDF.
const maxPDFPages = 5000

// pdfText extracts the title and the text of a PDF, pages separated by a
// blank line. Malformed files give an error, never a panic.
//
// The parser re-reads objects from the file on every access and has no
// cycle detection, so a malformed file can make it loop. Every read goes
// through a guard that stops the parser once it has read far more than
// the file holds, or once the timeout has passed.
func pdfText(data []byte) (title, text string, err error) {
	type result struct {
		title, text string
		err         error
	}
	src := &guardedReader{r: bytes.NewReader(data), budget: 256<<20 + 256*int64(len(data))}
	done := make(chan result, 1)
	go func() {
		var r result
		r.title, r.text, r.err = readPDF(src, int64(len(data)))
		done <- r
	}()
	timer := time.NewTimer(pdfTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.title, r.text, r.err
	case <-timer.C:
		src.stop.Store(true)
		return "", "", fmt.Errorf("pdf: text extraction took over %s; the file is likely malformed", pdfTimeout)
	}
}

var (
	errPDFStopped = errors.New("extraction stopped")
	errPDFLoop    = errors.New("the parser kept re-reading the file (a cyclic structure?)")
)

// guardedReader is the parser's view of the file.
type guardedReader struct {
	r      *bytes.Reader
	budget int64
	read   atomic.Int64
	stop   atomic.Bool
}

func (g *guardedReader) ReadAt(p []byte, off int64) (int, error) {
	if g.stop.Load() {
		panic(errPDFStopped)
	}
	if g.read.Add(int64(len(p))) > g.budget {
		panic(errPDFLoop)
	}
	return g.r.ReadAt(p, off)
}

// readPDF does the extraction; the parser panics on malformed input,
// which is turned into an error.
func readPDF(src *guardedReader, size int64) (title, text string, err error) {
	defer func() {
		if p := recover(); p != nil {
			title, text, err = "", "", fmt.Errorf("pdf: malformed file: %v", p)
		}
	}()
	r, err := pdf.NewReader(src, size)
	if err != nil {
		return "", "", fmt.Errorf("pdf: %w", err)
	}
	pages, err := collectPages(r.Trailer().Key("Root").Key("Pages"))
	if err != nil {
		return "", "", fmt.Errorf("pdf: %w", err)
	}
	var b strings.Builder
	for i, page := range pages {
		if err := checkPageStreams(page); err != nil {
			return "", "", fmt.Errorf("pdf: page %d: %w", i+1, err)
		}
		s := pageLayoutText(page) // each page's own fonts: names repeat across pages
		if s = strings.TrimSpace(s); s != "" {
			b.WriteString(s)
			b.WriteString("\n\n")
		}
	}
	title = r.Trailer().Key("Info").Key("Title").Text()
	return validText(strings.TrimSpace(title)), validText(strings.TrimSpace(b.String())), nil
}

// collectPages walks the page tree once, in order. The parser's own page
// lookup walks the tree from the root for every page and loops forever on
// a tree that contains itself; this walk is bounded in depth and size.
func collectPages(root pdf.Value) ([]pdf.Page, error) {
	var pages []pdf.Page
	nodes := 0
	var walk func(v pdf.Value, depth int) error
	walk = func(v pdf.Value, depth int) error {
		if nodes++; nodes > 4*maxPDFPages || depth > 64 {
			return errors.New("page tree too large or cyclic")
		}
		switch v.Key("Type").Name() {
		case "Page":
			if len(pages) >= maxPDFPages {
				return fmt.Errorf("over %d pages", maxPDFPages)
			}
			pages = append(pages, pdf.Page{V: v})
		case "Pages":
			kids := v.Key("Kids")
			for i := range kids.Len() {
				if err := walk(kids.Index(i), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(root, 0); err != nil {
		return nil, err
	}
	if len(pages) == 0 {
		return nil, errors.New("no pages found")
	}
	return pages, nil
}
