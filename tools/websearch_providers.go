package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// tavily queries POST {base}/search with a bearer key.
func (w *WebSearch) tavily(ctx context.Context, query string, n int) ([]SearchResult, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "max_results": n, "search_depth": "basic"})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.opts.BaseURL+"/search", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+w.opts.APIKey)
	data, err := w.do(req)
	if err != nil {
		return nil, err
	}
	return ParseTavily(data)
}

// brave queries GET {base}/res/v1/web/search with the subscription token.
func (w *WebSearch) brave(ctx context.Context, query string, n int) ([]SearchResult, error) {
	q := url.Values{"q": {query}, "count": {strconv.Itoa(n)}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.opts.BaseURL+"/res/v1/web/search?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", w.opts.APIKey)
	data, err := w.do(req)
	if err != nil {
		return nil, err
	}
	return ParseBrave(data)
}

// do sends req and returns a size-capped body of a 200 answer.
func (w *WebSearch) do(req *http.Request) ([]byte, error) {
	resp, err := w.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxSearchBody))
	if err != nil {
		return nil, fmt.Errorf("read the answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the service answered %s: %s", resp.Status, clipText(string(data), 200))
	}
	return data, nil
}

// ParseTavily reads a Tavily /search answer: {"results": [{title, url, content}]}.
func ParseTavily(data []byte) ([]SearchResult, error) {
	var doc struct {
		Results []struct {
			Title   string `json:"title"`
			URL     string `json:"url"`
			Content string `json:"content"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("decode the Tavily answer: %w", err)
	}
	out := make([]SearchResult, 0, len(doc.Results))
	for _, r := range doc.Results {
		out = appendResult(out, r.Title, r.URL, r.Content)
	}
	return out, nil
}

// ParseBrave reads a Brave web search answer: {"web": {"results": [{title,
// url, description}]}}; descriptions carry <strong> highlights.
func ParseBrave(data []byte) ([]SearchResult, error) {
	var doc struct {
		Web struct {
			Results []struct {
				Title       string `json:"title"`
				URL         string `json:"url"`
				Description string `json:"description"`
			} `json:"results"`
		} `json:"web"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("decode the Brave answer: %w", err)
	}
	out := make([]SearchResult, 0, len(doc.Web.Results))
	for _, r := range doc.Web.Results {
		out = appendResult(out, r.Title, r.URL, r.Description)
	}
	return out, nil
}

// appendResult adds a cleaned hit; hits without an http(s) URL are dropped.
func appendResult(out []SearchResult, title, link, snippet string) []SearchResult {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return out
	}
	return append(out, SearchResult{
		Title:   clipText(plainText(title), 200),
		URL:     u.String(),
		Snippet: clipText(plainText(snippet), maxSnippetRunes),
	})
}

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// plainText removes HTML tags and entities and folds whitespace.
func plainText(s string) string {
	s = html.UnescapeString(htmlTag.ReplaceAllString(s, ""))
	return strings.Join(strings.Fields(strings.ToValidUTF8(s, "")), " ")
}

// clipText keeps at most n runes, marking a cut with "…".
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
