package tools

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/testenv"
	"github.com/toolhub/toolhub/retriever"
)

// newProvider builds the documents provider over a fresh index in a temp
// dir, with one root folder holding a Markdown file.
func newProvider(t *testing.T) (*Documents, string) {
	t.Helper()
	return newProviderWith(t, DocumentsOptions{})
}

// newProviderWith is newProvider with opts (its Roots and IdleClose are set here).
func newProviderWith(t *testing.T, opts DocumentsOptions) (*Documents, string) {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "notes")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	text := "# Retries\n\nRetry idempotent requests with exponential backoff and jitter.\n"
	if err := os.WriteFile(filepath.Join(root, "retries.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	indexDir := filepath.Join(dir, "index")
	open := func(ctx context.Context) (*retriever.Index, error) {
		return retriever.Open(indexDir, retriever.Options{Logger: slog.New(slog.DiscardHandler)})
	}
	opts.Roots, opts.IdleClose = []string{root}, 50*time.Millisecond
	d := NewDocuments(open, opts)
	t.Cleanup(func() { _ = d.Close() })
	return d, root
}

func call(t *testing.T, d *Documents, tool string, args map[string]any) *mcpgo.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := mcpclient.NewInProcessClient(d.Server())
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

func text(res *mcpgo.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestIndexThenSearchDocuments(t *testing.T) {
	d, root := newProvider(t)
	res := call(t, d, "search_documents", map[string]any{"query": "backoff"})
	if res.IsError || !strings.Contains(text(res), "No passages") {
		t.Fatalf("search of an empty index: %s", text(res))
	}
	res = call(t, d, "index_documents", map[string]any{"path": root})
	if res.IsError || !strings.Contains(text(res), "1 new or changed") {
		t.Fatalf("index_documents: %s", text(res))
	}
	res = call(t, d, "search_documents", map[string]any{"query": "exponential backoff", "k": 3})
	if res.IsError || !strings.Contains(text(res), "retries.md") || !strings.Contains(text(res), "**") {
		t.Fatalf("search: %s", text(res))
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if !strings.Contains(string(raw), `"mode":"bm25"`) {
		t.Errorf("structured content %s does not state the bm25 mode", raw)
	}
}

func TestIndexDocumentsOnlyInsideRoots(t *testing.T) {
	d, root := newProvider(t)
	outside := t.TempDir()
	link := filepath.Join(root, "escape")
	linkErr := testenv.TrySymlink(outside, link)
	cases := []struct{ name, path, want string }{
		{"outside every root", outside, "outside the configured document roots"},
		{"relative path", "notes", "not absolute"},
		{"symlink out of a root", link, "outside the configured document roots"},
		{"parent escape", filepath.Join(root, "..", ".."), "outside the configured document roots"},
		{"missing path", filepath.Join(root, "nope"), "no such file or folder"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == link && linkErr != nil {
				t.Skip(linkErr)
			}
			res := call(t, d, "index_documents", map[string]any{"path": tc.path})
			if !res.IsError || !strings.Contains(text(res), tc.want) {
				t.Fatalf("isError %v, text %q; want an error saying %q", res.IsError, text(res), tc.want)
			}
		})
	}
}

func TestNoRootsRefusesIndexing(t *testing.T) {
	d := NewDocuments(func(context.Context) (*retriever.Index, error) {
		t.Fatal("the index must not be opened")
		return nil, nil
	}, DocumentsOptions{})
	res := call(t, d, "index_documents", map[string]any{"path": "/tmp"})
	if !res.IsError || !strings.Contains(text(res), "documents.roots") {
		t.Fatalf("got %q", text(res))
	}
}

func TestIdleIndexIsClosedAndReopened(t *testing.T) {
	d, root := newProvider(t)
	call(t, d, "index_documents", map[string]any{"path": root})
	deadline := time.Now().Add(5 * time.Second)
	for {
		d.mu.Lock()
		closed := d.ix == nil
		d.mu.Unlock()
		if closed {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle index was not closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	res := call(t, d, "search_documents", map[string]any{"query": "jitter"})
	if res.IsError || !strings.Contains(text(res), "retries.md") {
		t.Fatalf("search after reopening: %s", text(res))
	}
}

// longNote is one passage longer than a snippet: the sentence at its end
// lies beyond the 240 bytes a snippet shows around the matched words.
const longNote = "# Travel policy\n\nBusiness travel is booked through the travel desk. " +
	"Trains are preferred for trips under four hours; flights need a manager's approval. " +
	"Hotels must be booked at the negotiated rates where the city has one. " +
	"Receipts are kept for seven years. The per diem for business travel is 42 euros a day, paid monthly.\n"

func TestSearchDocumentsGivesPassagesInFull(t *testing.T) {
	d, root := newProvider(t)
	if err := os.WriteFile(filepath.Join(root, "travel.md"), []byte(longNote), 0o644); err != nil {
		t.Fatal(err)
	}
	call(t, d, "index_documents", map[string]any{"path": root})
	cases := []struct {
		name string
		args map[string]any
	}{
		{"grouped", map[string]any{"query": "travel desk booked"}},
		{"ungrouped top 50", map[string]any{"query": "travel desk booked", "k": 50, "ungrouped": true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, d, "search_documents", tc.args)
			if res.IsError {
				t.Fatal(text(res))
			}
			if strings.Contains(text(res), "42 euros") {
				t.Fatalf("the listing shows the whole passage, not a snippet: %s", text(res))
			}
			raw, _ := json.Marshal(res.StructuredContent)
			var got struct {
				Hits []struct {
					Text string `json:"text"`
				} `json:"hits"`
				Passages []Passage `json:"passages"`
			}
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if len(got.Passages) == 0 || !strings.HasSuffix(got.Passages[0].Path, "travel.md") {
				t.Fatalf("passages %+v, want travel.md first", got.Passages)
			}
			if p := got.Passages[0]; !strings.Contains(p.Text, "Business travel is booked") || !strings.Contains(p.Text, "42 euros a day, paid monthly.") || p.Score <= 0 {
				t.Errorf("first passage %+v, want the chunk's whole text and its score", p)
			}
			for _, h := range got.Hits {
				if h.Text != "" {
					t.Errorf("a hit carries the passage text a second time")
				}
			}
		})
	}
}

// TestIndexHeldElsewhereIsExplained checks what the document tools say
// when another process holds the index: any of toolhub's processes may.
func TestIndexHeldElsewhereIsExplained(t *testing.T) {
	d, root := newProvider(t)
	held, err := retriever.Open(filepath.Join(filepath.Dir(root), "index"), retriever.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Close() }()
	cases := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"search", "search_documents", map[string]any{"query": "jitter"}},
		{"index", "index_documents", map[string]any{"path": root}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := call(t, d, c.tool, c.args)
			got := text(res)
			for _, want := range []string{"in use by another toolhub process", "`toolhub serve`", "desktop app", "`toolhub index add`"} {
				if !res.IsError || !strings.Contains(got, want) {
					t.Errorf("%s with the index held: %q lacks %q", c.tool, got, want)
				}
			}
		})
	}
}

// TestAnIdleHolderHandsTheIndexOver: two serves of two MCP clients share
// one index; the one holding it, idle, hands it over to the other's call.
func TestAnIdleHolderHandsTheIndexOver(t *testing.T) {
	d1, root := newProvider(t)
	d1.opts.IdleClose = time.Hour // it would keep the index for an hour
	call(t, d1, "index_documents", map[string]any{"path": root})
	indexDir := filepath.Join(filepath.Dir(root), "index")
	open := func(ctx context.Context) (*retriever.Index, error) {
		return retriever.OpenWaiting(ctx, indexDir, retriever.Options{Logger: slog.New(slog.DiscardHandler)}, time.Minute)
	}
	d2 := NewDocuments(open, DocumentsOptions{Roots: []string{root}})
	t.Cleanup(func() { _ = d2.Close() })
	res := call(t, d2, "search_documents", map[string]any{"query": "jitter"})
	if res.IsError || !strings.Contains(text(res), "retries.md") {
		t.Fatalf("search by the second process: %s", text(res))
	}
	d1.mu.Lock()
	closed := d1.ix == nil
	d1.mu.Unlock()
	if !closed {
		t.Fatal("the holder kept the index it handed over")
	}
}
