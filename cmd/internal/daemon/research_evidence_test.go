package daemon_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/retriever"
)

// travelNote is one passage longer than a search snippet: the query below
// matches its opening, and the fact sits at its end, beyond the snippet.
var travelNote = "# Travel policy\n\nBusiness travel is booked through the travel desk. " +
	strings.Repeat("Trains are preferred for trips under four hours; flights need a manager's approval. ", 4) +
	"The per diem for business travel is 42 euros a day, paid monthly.\n"

// TestResearchAnswerReadsRetrievedPassagesInFull runs a research episode
// in process over a real index (Badger and Bleve in a temp folder) and the
// built-in search_documents: the answer expert's prompt holds the passage
// the retriever found, in full, as its own document, and not the listing
// of snippets people read.
func TestResearchAnswerReadsRetrievedPassagesInFull(t *testing.T) {
	dir := t.TempDir()
	docs, indexDir := filepath.Join(dir, "docs"), filepath.Join(dir, "index")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "travel.md"), []byte(travelNote), 0o644); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	open := func(context.Context) (*retriever.Index, error) {
		return retriever.Open(indexDir, retriever.Options{Logger: quiet})
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ix, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.IngestPaths(ctx, []string{docs}, retriever.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}

	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
		scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`))
	defer orch.Close()
	expert := scriptedmodel.New(
		scriptedmodel.RawTextReply("<query>travel desk booked</query>"),
		scriptedmodel.RawTextReply(`\boxed{42 euros a day}`))
	defer expert.Close()
	cfgPath := filepath.Join(dir, "config.json")
	body := `{"mcpServers": {}, "python": {"enabled": false},
  "models": {"big": {"baseUrl": "` + expert.URL() + `/v1", "model": "gpt-5", "roles": ["search", "answer"]}},
  "orchestrator": {"baseUrl": "` + orch.URL() + `/v1", "temperature": 0}}`
	if err := os.WriteFile(cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: quiet, OpenIndex: open})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.Start(ctx)

	c := stdioClient(ctx, t, d)
	req := mcpgo.CallToolRequest{}
	req.Params.Name = "research"
	req.Params.Arguments = map[string]any{"question": "What is the per diem for business travel?"}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || !strings.Contains(textOf(res), "42 euros a day") {
		t.Fatalf("result %q (error %v)", textOf(res), res.IsError)
	}
	reqs := expert.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the expert got %d requests, want the query and the answer", len(reqs))
	}
	var answer struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1], &answer); err != nil {
		t.Fatal(err)
	}
	prompt := answer.Messages[len(answer.Messages)-1].Content
	if want := "Documents:\nDoc 1: " + strings.TrimSpace(travelNote) + "\n\nProblem:\n"; !strings.Contains(prompt, want) {
		t.Errorf("the answer prompt lacks the passage in full:\n%s", prompt)
	}
	for _, listing := range []string{"**", "[bytes", "passages for", "BM25 only"} {
		if strings.Contains(prompt, listing) {
			t.Errorf("the answer prompt shows the search listing (%q):\n%s", listing, prompt)
		}
	}
}
