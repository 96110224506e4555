package daemon_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/tools"
)

// TestEvidenceOnSciFact measures, over the BEIR SciFact test queries
// (TOOLHUB_SCIFACT names the dataset folder; skipped without it), how
// often the answer expert's prompt holds a relevant abstract's opening and
// closing 80 characters: before, when the whole search_documents listing
// was one document cut to 1,000 characters, and now, with the top 50
// passages as documents (GPT-5: in full; Qwen3-32B: 1,000 characters
// each). Run it with -v to read the figures.
func TestEvidenceOnSciFact(t *testing.T) {
	dataset := os.Getenv("TOOLHUB_SCIFACT")
	if dataset == "" || testing.Short() {
		t.Skip("set TOOLHUB_SCIFACT to the BEIR SciFact folder")
	}
	corpus, queries, qrels := loadSciFact(t, dataset)
	indexDir := filepath.Join(t.TempDir(), "index")
	open := func(context.Context) (*retriever.Index, error) {
		return retriever.Open(indexDir, retriever.Options{Logger: slog.New(slog.DiscardHandler)})
	}
	ctx := context.Background()
	ix, err := open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	docs := make([]retriever.Document, 0, len(corpus))
	for id, d := range corpus {
		docs = append(docs, retriever.Document{Path: id, Title: d.Title, Text: d.Text})
	}
	if _, err := ix.IngestDocuments(ctx, docs, retriever.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	provider := tools.NewDocuments(open, tools.DocumentsOptions{})
	defer provider.Close()
	c, err := mcpclient.NewInProcessClient(provider.Server())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "scifact", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	search := func(args map[string]any) *mcpgo.CallToolResult {
		req := mcpgo.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = "search_documents", args
		res, err := c.CallTool(ctx, req)
		if err != nil || res.IsError {
			t.Fatalf("search: %v %+v", err, res)
		}
		return res
	}
	answerPrompt := func(st policies.ResearchState, b policies.ExpertBudget) string {
		return policies.AnswerPrompt(policies.ExpertInput{Problem: "Q", State: st, Budget: b}, policies.StyleBoxed)[1].Content
	}
	gpt5 := policies.ExpertSettingsFor("gpt-5", policies.Alias{Role: policies.RoleAnswer, Locality: hub.LocalityRemote}, policies.VariantHLE).Budget
	qwen := policies.ExpertSettingsFor("Qwen/Qwen3-32B", policies.Alias{Role: policies.RoleAnswer, Locality: hub.LocalityLocal}, policies.VariantHLE).Budget
	type shown struct{ head, tail int }
	var before, afterGPT5, afterQwen shown
	check := func(s *shown, prompt, text string) {
		if strings.Contains(prompt, text[:80]) {
			s.head++
		}
		if strings.Contains(prompt, text[len(text)-80:]) {
			s.tail++
		}
	}
	n := 0
	for _, qid := range sortedKeys(qrels) {
		text := strings.TrimSpace(corpus[qrels[qid]].Text)
		if len(text) < 160 {
			continue
		}
		n++
		var old policies.ResearchState
		old.AddDocs([]string{textOf(search(map[string]any{"query": queries[qid]}))})
		check(&before, answerPrompt(old, policies.ExpertBudgetFor(policies.RoleAnswer, 0)), text)

		raw, _ := json.Marshal(search(map[string]any{"query": queries[qid], "k": 50, "ungrouped": true}).StructuredContent)
		var sc struct {
			Passages []tools.Passage `json:"passages"`
		}
		if err := json.Unmarshal(raw, &sc); err != nil {
			t.Fatal(err)
		}
		var passages []string
		for _, p := range sc.Passages {
			passages = append(passages, p.Title+"\n"+p.Text)
		}
		var now policies.ResearchState
		now.AddDocs(passages)
		check(&afterGPT5, answerPrompt(now, gpt5), text)
		check(&afterQwen, answerPrompt(now, qwen), text)
	}
	t.Logf("%d SciFact test queries; relevant abstract's first / last 80 characters in the answer prompt:", n)
	t.Logf("  before (listing as one document, 1,000 chars): %d / %d", before.head, before.tail)
	t.Logf("  now, GPT-5 (top 50 passages in full):         %d / %d", afterGPT5.head, afterGPT5.tail)
	t.Logf("  now, Qwen3-32B (top 50, 1,000 chars each):     %d / %d", afterQwen.head, afterQwen.tail)
	if afterGPT5.tail <= before.tail || afterGPT5.head <= before.head {
		t.Errorf("passages show no more of the relevant abstracts than the listing did")
	}
}

type sciDoc struct{ Title, Text string }

// loadSciFact reads the corpus, the queries and one relevant document per
// test query (the first listed in qrels/test.tsv).
func loadSciFact(t *testing.T, dir string) (map[string]sciDoc, map[string]string, map[string]string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "corpus.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	corpus := map[string]sciDoc{}
	eachLine(t, gz, func(line []byte) {
		var raw struct {
			ID    string `json:"_id"`
			Title string `json:"title"`
			Text  string `json:"text"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatal(err)
		}
		corpus[raw.ID] = sciDoc{raw.Title, raw.Text}
	})
	q, err := os.Open(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	queries := map[string]string{}
	eachLine(t, q, func(line []byte) {
		var raw struct {
			ID   string `json:"_id"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatal(err)
		}
		queries[raw.ID] = raw.Text
	})
	r, err := os.Open(filepath.Join(dir, "qrels", "test.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rel := map[string]string{}
	eachLine(t, r, func(line []byte) {
		f := strings.Split(string(line), "\t")
		if len(f) < 2 || f[0] == "query-id" {
			return
		}
		if _, seen := rel[f[0]]; !seen {
			rel[f[0]] = f[1]
		}
	})
	return corpus, queries, rel
}

func eachLine(t *testing.T, r io.Reader, f func([]byte)) {
	t.Helper()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) > 0 {
			f(sc.Bytes())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
