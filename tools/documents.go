package tools

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/retriever"
)

// DocumentsServerName names the built-in documents provider in the hub.
const DocumentsServerName = "documents"

// IndexOpener opens the configured document index.
type IndexOpener func(ctx context.Context) (*retriever.Index, error)

// DocumentsOptions configure the documents provider.
type DocumentsOptions struct {
	// Roots are the folders MCP clients may ask to index; nothing else.
	Roots []string
	// Exclude and MaxFileBytes apply to indexing, as in the config.
	Exclude      []string
	MaxFileBytes int64
	// IdleClose closes the index after this long without use (default 2
	// minutes), and at once when idle if another toolhub process waits for
	// it (retriever.OpenWaiting).
	IdleClose time.Duration
	Logger    *slog.Logger
	// Events, when set, receives an IngestProgress event for every step of
	// every ingest and one when it ends (data: an IngestEvent).
	Events Publisher
}

// Documents serves search_documents and index_documents over the local index.
// The index is opened on first use and closed again when idle.
type Documents struct {
	open IndexOpener
	opts DocumentsOptions

	rootsMu sync.RWMutex
	roots   []string // opts.Roots plus those added while running

	mu        sync.Mutex
	ix        *retriever.Index
	users     int
	idle      *time.Timer
	idleSince time.Time
}

// handoverCheck is how often an idle open index looks for another process
// waiting for it.
const handoverCheck = 250 * time.Millisecond

// NewDocuments builds the provider; nothing is opened until a tool is called.
func NewDocuments(open IndexOpener, opts DocumentsOptions) *Documents {
	if opts.IdleClose <= 0 {
		opts.IdleClose = 2 * time.Minute
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Documents{open: open, opts: opts, roots: slices.Clone(opts.Roots)}
}

// Roots are the folders that may be indexed.
func (d *Documents) Roots() []string {
	d.rootsMu.RLock()
	defer d.rootsMu.RUnlock()
	return slices.Clone(d.roots)
}

// AddRoot allows indexing inside root from now on (the caller persists it:
// the desktop writes it to the config when the user picks a folder).
func (d *Documents) AddRoot(root string) {
	d.rootsMu.Lock()
	defer d.rootsMu.Unlock()
	if !slices.Contains(d.roots, root) {
		d.roots = append(d.roots, root)
	}
}

// SetRoots replaces the folders that may be indexed: the roots of a config
// file that changed while toolhub runs. What the index already holds stays
// searchable; a folder no longer listed is refused from now on.
func (d *Documents) SetRoots(roots []string) {
	d.rootsMu.Lock()
	defer d.rootsMu.Unlock()
	d.roots = slices.Clone(roots)
}

// Server is the in-process MCP server holding the documents tools.
func (d *Documents) Server() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("toolhub-documents", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(searchDocumentsTool(), d.handleSearch)
	s.AddTool(indexDocumentsTool(), d.handleIndex)
	return s
}

// acquire returns the open index, opening it when needed; release must follow.
func (d *Documents) acquire(ctx context.Context) (*retriever.Index, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopIdleLocked()
	if d.ix == nil {
		ix, err := d.open(ctx)
		if err != nil {
			return nil, fmt.Errorf("open the document index: %w", err)
		}
		d.ix = ix
	}
	d.users++
	return d.ix, nil
}

func (d *Documents) release() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.users--
	if d.users == 0 && d.ix != nil {
		d.idleSince = time.Now()
		d.idle = time.AfterFunc(min(handoverCheck, d.opts.IdleClose), d.closeIfIdle)
	}
}

// closeIfIdle closes an unused index once it has been idle for IdleClose,
// or at once when another process waits for it; else it looks again soon.
func (d *Documents) closeIfIdle() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.users > 0 || d.ix == nil {
		return
	}
	idleFor := time.Since(d.idleSince)
	if idleFor < d.opts.IdleClose && !d.ix.HandoverRequested() {
		d.idle = time.AfterFunc(min(handoverCheck, d.opts.IdleClose-idleFor), d.closeIfIdle)
		return
	}
	if err := d.ix.Close(); err != nil {
		d.opts.Logger.Warn("closing the idle document index", "err", err)
	}
	d.ix = nil
}

// stopIdleLocked cancels a pending idle close; d.mu must be held.
func (d *Documents) stopIdleLocked() {
	if d.idle != nil {
		d.idle.Stop()
		d.idle = nil
	}
}

// Close closes the index if it is open.
func (d *Documents) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.stopIdleLocked()
	if d.ix == nil {
		return nil
	}
	err := d.ix.Close()
	d.ix = nil
	return err
}

// indexUnavailable explains an index that cannot be opened. One process
// at a time can open it, whichever holds it: a serve, the desktop app or
// a command.
func indexUnavailable(err error) string {
	if errors.Is(err, retriever.ErrInUse) {
		return "the document index is in use by another toolhub process (a `toolhub serve` of another client, " +
			"the desktop app or a command such as `toolhub index add`) and was not handed over in time: a serve or " +
			"the desktop app hands it over once none of its calls needs it, a command when it ends; " +
			"try again then, or give each its own documents.dir"
	}
	return err.Error()
}

// Ingest indexes paths, each inside a configured root, announcing every
// ingest event (per file, and per embedded batch) and the end on the event
// bus under the subject id (NewIngestID makes one).
func (d *Documents) Ingest(ctx context.Context, id string, paths []string) (retriever.IngestReport, error) {
	resolved := make([]string, 0, len(paths))
	for _, p := range paths {
		r, err := d.insideRoot(p)
		if err != nil {
			return retriever.IngestReport{}, err
		}
		resolved = append(resolved, r)
	}
	ix, err := d.acquire(ctx)
	if err != nil {
		return retriever.IngestReport{}, errors.New(indexUnavailable(err))
	}
	defer d.release()
	return d.ingest(ctx, ix, id, resolved)
}

// Status reports the index's documents, chunks, vectors and disk use.
func (d *Documents) Status(ctx context.Context) (retriever.Status, error) {
	ix, err := d.acquire(ctx)
	if err != nil {
		return retriever.Status{}, errors.New(indexUnavailable(err))
	}
	defer d.release()
	return ix.Status()
}
