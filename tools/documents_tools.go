package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/retriever"
)

// maxSearchK is the most passages one search_documents call returns: the
// 150 that research mode's FRAMES variant asks for.
const maxSearchK = 150

func searchDocumentsTool() mcpgo.Tool {
	return mcpgo.NewTool("search_documents",
		mcpgo.WithDescription("Search the user's private local documents (files indexed on this machine; "+
			"nothing leaves it). Returns the best matching passages with their file path, byte offsets and a "+
			"snippet with the matched words in **bold**; the structured result also holds each passage's full text."),
		mcpgo.WithString("query", mcpgo.Required(), mcpgo.Description("keywords or a short question")),
		mcpgo.WithNumber("k", mcpgo.Description(fmt.Sprintf("number of files (passages with ungrouped), 1 to %d (default 8)", maxSearchK)),
			mcpgo.Min(1), mcpgo.Max(maxSearchK)),
		mcpgo.WithString("mode", mcpgo.Enum("bm25", "vector", "hybrid"),
			mcpgo.Description("ranking: bm25 (keywords), vector or hybrid (need an embedding endpoint); default: hybrid when available, else bm25")),
		mcpgo.WithString("path_prefix", mcpgo.Description("only documents whose path starts with this")),
		mcpgo.WithBoolean("ungrouped", mcpgo.Description("list every matching passage on its own; by default each file appears once, "+
			"its best passage first and its other matches under \"more\"")),
		mcpgo.WithReadOnlyHintAnnotation(true),
		mcpgo.WithOpenWorldHintAnnotation(false),
	)
}

func indexDocumentsTool() mcpgo.Tool {
	return mcpgo.NewTool("index_documents",
		mcpgo.WithDescription("Index (or refresh) a folder or file so search_documents finds it. Only paths "+
			"inside the folders the user configured as document roots are accepted."),
		mcpgo.WithString("path", mcpgo.Required(), mcpgo.Description("absolute path of a file or folder inside a configured root")),
		mcpgo.WithIdempotentHintAnnotation(true),
		mcpgo.WithOpenWorldHintAnnotation(false),
	)
}

func (d *Documents) handleSearch(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	q := retriever.Query{
		Text:       req.GetString("query", ""),
		K:          req.GetInt("k", 8),
		Mode:       retriever.Mode(req.GetString("mode", "")),
		PathPrefix: req.GetString("path_prefix", ""),
		Ungrouped:  req.GetBool("ungrouped", false),
		WithText:   true,
	}
	ix, err := d.acquire(ctx)
	if err != nil {
		return mcpgo.NewToolResultError(indexUnavailable(err)), nil
	}
	defer d.release()
	res, err := ix.Search(ctx, q)
	if err != nil {
		return mcpgo.NewToolResultError("search failed: " + err.Error()), nil
	}
	res.DisplayPaths()
	out := mcpgo.NewToolResultText(formatHits(res))
	out.StructuredContent = searchContent(res)
	return out, nil
}

func formatHits(res *retriever.Results) string {
	var b strings.Builder
	if len(res.Hits) == 0 {
		fmt.Fprintf(&b, "No passages match %q (%s).", res.Query, res.Mode)
		if res.Note != "" {
			b.WriteString(" " + res.Note)
		}
		return b.String()
	}
	fmt.Fprintf(&b, "%d passages for %q (%s):\n", len(res.Hits), res.Query, res.Mode)
	for i, h := range res.Hits {
		where := h.Path
		if h.Heading != "" {
			where += " › " + h.Heading
		}
		fmt.Fprintf(&b, "\n%d. %s [bytes %d-%d, score %.3f]\n%s\n", i+1, where, h.Start, h.End, h.Score, h.Snippet)
	}
	if res.Note != "" {
		b.WriteString("\n" + res.Note + "\n")
	}
	return b.String()
}

func (d *Documents) handleIndex(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	path, err := d.insideRoot(req.GetString("path", ""))
	if err != nil {
		return mcpgo.NewToolResultError(err.Error()), nil
	}
	ix, err := d.acquire(ctx)
	if err != nil {
		return mcpgo.NewToolResultError(indexUnavailable(err)), nil
	}
	defer d.release()
	rep, err := d.ingest(ctx, ix, NewIngestID(), []string{path})
	if err != nil {
		return mcpgo.NewToolResultError("indexing failed: " + err.Error()), nil
	}
	out := mcpgo.NewToolResultText(fmt.Sprintf(
		"Indexed %s: %d new or changed, %d unchanged, %d removed, %d skipped, %d failed (%d chunks).",
		retriever.DisplayPath(path), rep.Indexed, rep.Unchanged, rep.Removed, rep.Skipped, rep.Failed, rep.Chunks))
	out.StructuredContent = rep
	return out, nil
}

// insideRoot resolves path and checks it lies inside a configured root;
// symbolic links are resolved first so they cannot lead outside.
func (d *Documents) insideRoot(path string) (string, error) {
	roots := d.Roots()
	if len(roots) == 0 {
		return "", fmt.Errorf("no document roots are configured: add folders to documents.roots in the toolhub config to allow indexing over MCP")
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("path %q is not absolute", path)
	}
	resolved, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		// the same words on every platform, not Windows' "The system
		// cannot find the file specified"
		return "", fmt.Errorf("path %q: no such file or folder", path)
	}
	if err != nil {
		return "", fmt.Errorf("path %q: %w", path, err)
	}
	for _, root := range roots {
		r, err := filepath.EvalSymlinks(root)
		if err != nil {
			continue
		}
		rel, err := filepath.Rel(r, resolved)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
			return resolved, nil
		}
	}
	return "", fmt.Errorf("path %q is outside the configured document roots (%s)", path, strings.Join(roots, ", "))
}
