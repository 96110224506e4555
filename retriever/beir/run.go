package beir

import (
	"context"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/toolhub/toolhub/retriever"
)

// RunConfig describes one benchmark run.
type RunConfig struct {
	Dataset string // folder with corpus, queries and qrels
	Split   string // qrels file: "test", "train"...
	Mode    retriever.Mode
	Options retriever.Options // index options (embedder, chunk size)
	Workers int
	// Progress receives ingest events.
	Progress func(retriever.Event)
}

// Report is the outcome of a run.
type Report struct {
	Dataset    string  `json:"dataset"`
	Split      string  `json:"split"`
	Mode       string  `json:"mode"`
	Documents  int     `json:"documents"`
	Chunks     int     `json:"chunks"`
	Queries    int     `json:"queries"`
	NDCG10     float64 `json:"ndcg_at_10"`
	Recall100  float64 `json:"recall_at_100"`
	IngestSecs float64 `json:"ingest_seconds"`
	DocsPerSec float64 `json:"ingest_docs_per_second"`
	LatencyP50 float64 `json:"latency_p50_ms"`
	LatencyP99 float64 `json:"latency_p99_ms"`
	IndexBytes int64   `json:"index_bytes"`
	EmbedError string  `json:"embed_error,omitempty"`
}

// Run ingests the corpus into a fresh index in a temporary folder through
// IngestDocuments (one document per entry, title and text), runs every
// query judged in the split's qrels with k = 100, and scores the rankings.
func Run(ctx context.Context, cfg RunConfig) (*Report, error) {
	corpus, queries, qrels, err := loadAll(cfg.Dataset, cfg.Split)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "toolhub-beir-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	ix, err := retriever.Open(dir, cfg.Options)
	if err != nil {
		return nil, err
	}
	defer func() { _ = ix.Close() }()

	rep := &Report{Dataset: cfg.Dataset, Split: cfg.Split, Documents: len(corpus), Queries: len(qrels)}
	if err := ingestCorpus(ctx, ix, corpus, cfg, rep); err != nil {
		return nil, err
	}
	if err := runQueries(ctx, ix, queries, qrels, cfg.Mode, rep); err != nil {
		return nil, err
	}
	st, err := ix.Status()
	if err != nil {
		return nil, err
	}
	rep.Chunks, rep.IndexBytes = st.Chunks, st.DiskBytes
	return rep, nil
}

func loadAll(dataset, split string) ([]Doc, map[string]string, Qrels, error) {
	corpus, err := LoadCorpus(dataset)
	if err != nil {
		return nil, nil, nil, err
	}
	queries, err := LoadQueries(dataset)
	if err != nil {
		return nil, nil, nil, err
	}
	qrels, err := LoadQrels(dataset, split)
	if err != nil {
		return nil, nil, nil, err
	}
	return corpus, queries, qrels, nil
}

func ingestCorpus(ctx context.Context, ix *retriever.Index, corpus []Doc, cfg RunConfig, rep *Report) error {
	docs := make([]retriever.Document, len(corpus))
	for i, d := range corpus {
		docs[i] = retriever.Document{Path: d.ID, Title: d.Title, Text: d.Text}
	}
	start := time.Now()
	ir, err := ix.IngestDocuments(ctx, docs, retriever.IngestOptions{Workers: cfg.Workers, Progress: cfg.Progress})
	if err != nil {
		return fmt.Errorf("ingest corpus: %w", err)
	}
	rep.IngestSecs = time.Since(start).Seconds()
	rep.DocsPerSec = float64(ir.Indexed) / rep.IngestSecs
	rep.EmbedError = ir.EmbedError
	if ir.Failed > 0 {
		return fmt.Errorf("ingest corpus: %d documents failed, first: %s", ir.Failed, ir.Problems[0].Reason)
	}
	return nil
}

// runQueries searches every judged query in order and scores the results.
func runQueries(ctx context.Context, ix *retriever.Index, queries map[string]string, qrels Qrels, mode retriever.Mode, rep *Report) error {
	ids := make([]string, 0, len(qrels))
	for id := range qrels {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var latencies []time.Duration
	var ndcg, recall float64
	for _, qid := range ids {
		text, ok := queries[qid]
		if !ok {
			return fmt.Errorf("query %s is judged but missing from queries.jsonl", qid)
		}
		start := time.Now()
		res, err := ix.Search(ctx, retriever.Query{Text: text, K: 100, Mode: mode, Ungrouped: true})
		if err != nil {
			return fmt.Errorf("query %s: %w", qid, err)
		}
		latencies = append(latencies, time.Since(start))
		rep.Mode = res.Mode
		ranked := make([]string, len(res.Hits))
		for i, h := range res.Hits {
			ranked[i] = h.Path
		}
		ranked = Dedupe(ranked)
		ndcg += NDCG(ranked, qrels[qid], 10)
		recall += Recall(ranked, qrels[qid], 100)
	}
	if n := float64(len(ids)); n > 0 {
		rep.NDCG10, rep.Recall100 = ndcg/n, recall/n
	}
	rep.LatencyP50 = ms(Percentile(latencies, 50))
	rep.LatencyP99 = ms(Percentile(latencies, 99))
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
