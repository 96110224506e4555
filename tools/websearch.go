package tools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// WebSearchServerName names the built-in web search provider in the hub.
const WebSearchServerName = "web-search"

// The search services web_search can use.
const (
	SearchTavily = "tavily"
	SearchBrave  = "brave"
)

// Defaults of the web_search tool.
const (
	DefaultSearchResults = 5
	maxSearchResults     = 20
	DefaultSearchTimeout = 20 * time.Second
	maxSearchBody        = 4 << 20
	maxSnippetRunes      = 500
)

// WebSearchOptions configure the web_search provider.
type WebSearchOptions struct {
	Provider string // SearchTavily or SearchBrave
	APIKey   string // the key itself; never logged
	// BaseURL replaces the service's address (tests point it at a local
	// server): https://api.tavily.com or https://api.search.brave.com.
	BaseURL    string
	MaxResults int           // default results per query
	Timeout    time.Duration // per query
	HTTPClient *http.Client
}

// SearchResult is one hit, as the tool returns it.
type SearchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// WebSearch serves the web_search tool over Tavily or Brave Search.
type WebSearch struct {
	opts   WebSearchOptions
	search func(ctx context.Context, query string, n int) ([]SearchResult, error)
}

// NewWebSearch checks the options; it fails without a key or with an
// unknown provider, and the tool is then not offered.
func NewWebSearch(opts WebSearchOptions) (*WebSearch, error) {
	if opts.APIKey == "" {
		return nil, errors.New("web search: no API key")
	}
	if opts.MaxResults <= 0 {
		opts.MaxResults = DefaultSearchResults
	}
	opts.MaxResults = min(opts.MaxResults, maxSearchResults)
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultSearchTimeout
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	w := &WebSearch{opts: opts}
	switch opts.Provider {
	case SearchTavily:
		w.opts.BaseURL = orString(opts.BaseURL, "https://api.tavily.com")
		w.search = w.tavily
	case SearchBrave:
		w.opts.BaseURL = orString(opts.BaseURL, "https://api.search.brave.com")
		w.search = w.brave
	default:
		return nil, fmt.Errorf("web search: unknown provider %q (want %q or %q)", opts.Provider, SearchTavily, SearchBrave)
	}
	w.opts.BaseURL = strings.TrimRight(w.opts.BaseURL, "/")
	return w, nil
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Server is the in-process MCP server holding web_search.
func (w *WebSearch) Server() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("toolhub-web-search", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(w.tool(), w.handle)
	return s
}

func (w *WebSearch) tool() mcpgo.Tool {
	return mcpgo.NewTool("web_search",
		mcpgo.WithDescription(fmt.Sprintf("Search the public web (through %s) and return a short list of "+
			"results: title, URL and snippet. The query leaves this machine.", w.opts.Provider)),
		mcpgo.WithString("query", mcpgo.Required(), mcpgo.Description("keywords or a short question")),
		mcpgo.WithNumber("max_results", mcpgo.Min(1), mcpgo.Max(maxSearchResults),
			mcpgo.Description(fmt.Sprintf("number of results, 1 to %d (default %d)", maxSearchResults, w.opts.MaxResults))),
		mcpgo.WithReadOnlyHintAnnotation(true),
		mcpgo.WithOpenWorldHintAnnotation(true),
	)
}

func (w *WebSearch) handle(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	query := strings.TrimSpace(req.GetString("query", ""))
	if query == "" {
		return mcpgo.NewToolResultError("query is empty"), nil
	}
	n := min(max(req.GetInt("max_results", w.opts.MaxResults), 1), maxSearchResults)
	results, err := w.Search(ctx, query, n)
	if err != nil {
		return mcpgo.NewToolResultError(err.Error()), nil
	}
	out := mcpgo.NewToolResultText(formatSearchResults(query, results))
	out.StructuredContent = map[string]any{"query": query, "results": results, "passages": webPassages(results)}
	return out, nil
}

// Search runs one query with the configured timeout.
func (w *WebSearch) Search(ctx context.Context, query string, n int) ([]SearchResult, error) {
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	results, err := w.search(ctx, query, n)
	if err != nil {
		return nil, fmt.Errorf("web search (%s): %w", w.opts.Provider, err)
	}
	if len(results) > n {
		results = results[:n]
	}
	return results, nil
}

func formatSearchResults(query string, results []SearchResult) string {
	if len(results) == 0 {
		return fmt.Sprintf("No web results for %q.", query)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d web results for %q:\n", len(results), query)
	for i, r := range results {
		fmt.Fprintf(&b, "\n%d. %s\n%s\n%s\n", i+1, r.Title, r.URL, r.Snippet)
	}
	return b.String()
}
