package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

const testKey = "key-that-must-stay-secret"

// fakeSearchService answers like Tavily or Brave after checking the request
// shape and key; it records the queries it saw.
func fakeSearchService(t *testing.T, provider string, delay time.Duration) (*httptest.Server, *[]string) {
	t.Helper()
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		switch provider {
		case SearchTavily:
			var body struct {
				Query      string `json:"query"`
				MaxResults int    `json:"max_results"`
			}
			if r.Method != http.MethodPost || r.URL.Path != "/search" || r.Header.Get("Authorization") != "Bearer "+testKey ||
				json.NewDecoder(r.Body).Decode(&body) != nil {
				http.Error(w, `{"detail":"unauthorized"}`, http.StatusUnauthorized)
				return
			}
			seen = append(seen, fmt.Sprintf("%s/%d", body.Query, body.MaxResults))
			fmt.Fprint(w, `{"query":"q","results":[
				{"title":"Go 1.26 &amp; you","url":"https://go.dev/doc/go1.26","content":"Release   notes\nfor Go.","score":0.9},
				{"title":"bad","url":"javascript:alert(1)","content":"dropped"},
				{"title":"Second","url":"https://example.com/2","content":"two"}]}`)
		case SearchBrave:
			if r.Method != http.MethodGet || r.URL.Path != "/res/v1/web/search" || r.Header.Get("X-Subscription-Token") != testKey {
				http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
				return
			}
			seen = append(seen, r.URL.Query().Get("q")+"/"+r.URL.Query().Get("count"))
			fmt.Fprint(w, `{"type":"search","web":{"results":[
				{"title":"Go 1.26 &amp; you","url":"https://go.dev/doc/go1.26","description":"Release <strong>notes</strong> for Go."},
				{"title":"Second","url":"https://example.com/2","description":"two"}]}}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func TestWebSearchProviders(t *testing.T) {
	for _, provider := range []string{SearchTavily, SearchBrave} {
		t.Run(provider, func(t *testing.T) {
			srv, seen := fakeSearchService(t, provider, 0)
			w, err := NewWebSearch(WebSearchOptions{Provider: provider, APIKey: testKey, BaseURL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			res := callTool(t, w.Server(), "web_search", map[string]any{"query": "go release", "max_results": 3})
			got := resultText(res)
			if res.IsError || !strings.Contains(got, "1. Go 1.26 & you\nhttps://go.dev/doc/go1.26\nRelease notes for Go.") ||
				!strings.Contains(got, "2. Second") || strings.Contains(got, "javascript") {
				t.Fatalf("result %q", got)
			}
			if len(*seen) != 1 || (*seen)[0] != "go release/3" {
				t.Fatalf("the service saw %v", *seen)
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var sc struct {
				Passages []Passage `json:"passages"`
			}
			if err := json.Unmarshal(raw, &sc); err != nil {
				t.Fatal(err)
			}
			want := Passage{Path: "https://go.dev/doc/go1.26", Title: "Go 1.26 & you", Text: "Release notes for Go."}
			if len(sc.Passages) != 2 || sc.Passages[0] != want {
				t.Errorf("passages %+v, want %+v first of 2", sc.Passages, want)
			}
		})
	}
}

func TestWebSearchFailures(t *testing.T) {
	slow, _ := fakeSearchService(t, SearchBrave, 500*time.Millisecond)
	tavily, _ := fakeSearchService(t, SearchTavily, 0)
	cases := []struct {
		name string
		opts WebSearchOptions
		want string
	}{
		{"wrong key", WebSearchOptions{Provider: SearchTavily, APIKey: "wrong", BaseURL: tavily.URL}, "answered 401 Unauthorized"},
		{"timeout", WebSearchOptions{Provider: SearchBrave, APIKey: testKey, BaseURL: slow.URL, Timeout: 50 * time.Millisecond},
			"context deadline exceeded"},
		{"service down", WebSearchOptions{Provider: SearchBrave, APIKey: testKey, BaseURL: "http://127.0.0.1:1"}, "web search (brave)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewWebSearch(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			res := callTool(t, w.Server(), "web_search", map[string]any{"query": "x"})
			if got := resultText(res); !res.IsError || !strings.Contains(got, tc.want) || strings.Contains(got, testKey) {
				t.Fatalf("isError %v, text %q; want an error saying %q without the key", res.IsError, got, tc.want)
			}
		})
	}
}

func TestNewWebSearchRefuses(t *testing.T) {
	cases := []struct {
		name string
		opts WebSearchOptions
		want string
	}{
		{"no key", WebSearchOptions{Provider: SearchTavily}, "no API key"},
		{"unknown provider", WebSearchOptions{Provider: "bing", APIKey: "k"}, `unknown provider "bing"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewWebSearch(tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
		})
	}
}

func FuzzParseSearchAnswers(f *testing.F) {
	f.Add([]byte(`{"results":[{"title":"<b>t</b>","url":"https://a.b/c","content":"x &lt; y"}]}`))
	f.Add([]byte(`{"web":{"results":[{"title":"t","url":"http://h","description":"<strong>d</strong>"}]}}`))
	f.Add([]byte(`{"results":[{"url":"ftp://x"}],"web":{"results":null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parse := range []func([]byte) ([]SearchResult, error){ParseTavily, ParseBrave} {
			results, err := parse(data)
			if err != nil {
				continue
			}
			for _, r := range results {
				if !strings.HasPrefix(r.URL, "http://") && !strings.HasPrefix(r.URL, "https://") {
					t.Fatalf("kept a non-web URL %q", r.URL)
				}
				if len([]rune(r.Snippet)) > maxSnippetRunes || strings.ContainsAny(r.Snippet, "\n\t") {
					t.Fatalf("snippet not cleaned: %q", r.Snippet)
				}
			}
		}
	})
}

// callTool calls one tool of an in-process MCP server.
func callTool(t *testing.T, srv *mcpserver.MCPServer, tool string, args map[string]any) *mcpgo.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := mcpclient.NewInProcessClient(srv)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	req := mcpgo.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func resultText(res *mcpgo.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}
