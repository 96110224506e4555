package desktop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/ui"
)

// The built-in documents tools the desktop drives.
const (
	toolSearchDocuments = "search_documents"
	toolIndexDocuments  = "index_documents"
)

// DocumentRoots implements ui.DocumentsBackend: the configured roots, the
// only folders the documents provider indexes.
func (b *Backend) DocumentRoots(context.Context) ([]string, error) {
	home, _ := os.UserHomeDir()
	return b.opts.Config.Documents.ResolvedRoots(home), nil
}

// ingestReport mirrors the index_documents tool's structured result.
type ingestReport struct {
	Indexed   int `json:"indexed"`
	Unchanged int `json:"unchanged"`
	Skipped   int `json:"skipped"`
	Failed    int `json:"failed"`
	Removed   int `json:"removed"`
	Chunks    int `json:"chunks"`
}

// Ingest implements ui.DocumentsBackend through the index_documents tool,
// one folder at a time; progress counts folders.
func (b *Backend) Ingest(ctx context.Context, paths []string, progress func(ui.IngestProgress)) (ui.IngestSummary, error) {
	var sum ui.IngestSummary
	for i, p := range paths {
		progress(ui.IngestProgress{Done: i, Total: len(paths), Path: p})
		var rep ingestReport
		if err := b.callStructured(ctx, toolIndexDocuments, map[string]any{"path": p}, &rep); err != nil {
			return sum, err
		}
		sum.Indexed += rep.Indexed
		sum.Unchanged += rep.Unchanged
		sum.Skipped += rep.Skipped
		sum.Failed += rep.Failed
		sum.Removed += rep.Removed
		sum.Chunks += rep.Chunks
		progress(ui.IngestProgress{Done: i + 1, Total: len(paths), Path: p})
	}
	return sum, nil
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
		return nil, err
	}
	hits := make([]ui.SearchHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		hits = append(hits, ui.SearchHit{Path: h.Path, Heading: h.Heading, Score: h.Score, Snippet: h.Snippet})
	}
	return hits, nil
}

// IndexStats implements ui.DocumentsBackend. The documents tools report
// no index figures, so only the embedder is known here.
func (b *Backend) IndexStats(context.Context) (ui.IndexStats, error) {
	st := ui.IndexStats{Documents: -1}
	if e := b.opts.Config.Documents.Embedder; e != nil {
		st.Embedder = e.Model + " at " + e.URL
	}
	return st, nil
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
		return fmt.Errorf("%s: %s", tool, hub.ResultText(res.Raw, 500))
	}
	return json.Unmarshal(body.Structured, into)
}
