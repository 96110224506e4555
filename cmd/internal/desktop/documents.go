package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/tools"
	"github.com/toolhub/toolhub/ui"
)

// toolSearchDocuments is the built-in tool the desktop searches with.
const toolSearchDocuments = "search_documents"

// DocumentRoots implements ui.DocumentsBackend: the folders the documents
// provider indexes (the configured roots and those added here).
func (b *Backend) DocumentRoots(context.Context) ([]string, error) {
	if docs := b.opts.Daemon.Documents(); docs != nil {
		return docs.Roots(), nil
	}
	home, _ := os.UserHomeDir()
	return b.opts.Config.Documents.ResolvedRoots(home), nil
}

// allowFolders makes every path a document root unless one already holds
// it: the user picked it in the folder dialog. New roots are written to the
// config's documents.roots, so toolhub serve and later starts allow them too.
func (b *Backend) allowFolders(docs *tools.Documents, paths []string) error {
	for _, p := range paths {
		if insideAny(p, docs.Roots()) {
			continue
		}
		if b.opts.Config.Path != "" {
			if _, err := config.AddDocumentRoot(b.opts.Config.Path, p); err != nil {
				return fmt.Errorf("add %s to the document roots: %w", p, err)
			}
		}
		docs.AddRoot(p)
	}
	return nil
}

// insideAny reports whether path is one of roots or inside one.
func insideAny(path string, roots []string) bool {
	for _, r := range roots {
		rel, err := filepath.Rel(r, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// Ingest implements ui.DocumentsBackend on the daemon's index, inside the
// configured roots; progress counts files.
func (b *Backend) Ingest(ctx context.Context, paths []string, progress func(ui.IngestProgress)) (ui.IngestSummary, error) {
	docs := b.opts.Daemon.Documents()
	if docs == nil {
		return ui.IngestSummary{}, &ui.PlainError{Summary: "This toolhub keeps no document index.",
			Fix: `Turn the documents tools on in the config ("documents").`}
	}
	if err := b.allowFolders(docs, paths); err != nil {
		return ui.IngestSummary{}, plainError(err)
	}
	id := tools.NewIngestID()
	stop, _ := b.opts.Daemon.Bus().Follow(events.Filter{Mask: events.IngestProgress, Subject: id},
		func(ev events.Event) {
			if e, ok := ev.Data.(tools.IngestEvent); ok && !e.Finished && e.Kind != retriever.EventEmbedded {
				progress(ui.IngestProgress{Done: e.Done, Total: e.Total, Path: retriever.DisplayPath(e.Path)})
			}
		})
	rep, err := docs.Ingest(ctx, id, paths)
	stop()
	return ui.IngestSummary{Indexed: rep.Indexed, Unchanged: rep.Unchanged, Skipped: rep.Skipped,
		Failed: rep.Failed, Removed: rep.Removed, Chunks: rep.Chunks}, plainError(err)
}

// searchResults mirrors the search_documents tool's structured result.
type searchResults struct {
	Mode string `json:"mode"`
	Note string `json:"note"`
	Hits []struct {
		Path    string  `json:"path"`
		Heading string  `json:"heading"`
		Score   float64 `json:"score"`
		Snippet string  `json:"snippet"`
	} `json:"hits"`
}

// Search implements ui.DocumentsBackend through the search_documents tool.
func (b *Backend) Search(ctx context.Context, query string, k int) ([]ui.SearchHit, error) {
	var res searchResults
	if err := b.callStructured(ctx, toolSearchDocuments, map[string]any{"query": query, "k": k}, &res); err != nil {
		return nil, plainError(err)
	}
	hits := make([]ui.SearchHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, ui.SearchHit{Path: h.Path, Heading: h.Heading, Score: h.Score, Snippet: h.Snippet})
	}
	return hits, nil
}

// IndexStats implements ui.DocumentsBackend from the index's own status.
func (b *Backend) IndexStats(ctx context.Context) (ui.IndexStats, error) {
	docs := b.opts.Daemon.Documents()
	if docs == nil {
		return ui.IndexStats{Documents: -1}, nil
	}
	st, err := docs.Status(ctx)
	if err != nil {
		return ui.IndexStats{Documents: -1}, plainError(err)
	}
	out := ui.IndexStats{Documents: st.Documents, Chunks: st.Chunks, Bytes: st.DiskBytes, Embedder: st.Embedder}
	if st.StoredEmbedder != "" && st.StoredEmbedder != st.Embedder {
		out.Embedder += " (stored vectors from " + st.StoredEmbedder + ": re-ingest to refresh)"
	}
	return out, nil
}

// callStructured calls a built-in tool and decodes its structured result.
func (b *Backend) callStructured(ctx context.Context, tool string, args map[string]any, into any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	res, err := b.opts.Daemon.Hub().Call(ctx, tool, raw, hub.CallOptions{})
	var unknown *hub.UnknownToolError
	if errors.As(err, &unknown) {
		return fmt.Errorf("the documents tools are not running: %w", err)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", tool, err)
	}
	var body struct {
		Structured json.RawMessage `json:"structuredContent"`
	}
	if res.IsError || json.Unmarshal(res.Raw, &body) != nil || len(body.Structured) == 0 {
		return fmt.Errorf("%s: %s", tool, conductor.ResultText(res.Raw, 500))
	}
	return json.Unmarshal(body.Structured, into)
}
