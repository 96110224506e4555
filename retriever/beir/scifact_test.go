package beir

import (
	"context"
	"os"
	"testing"

	"github.com/toolhub/toolhub/retriever"
)

// TestSciFactBM25 is the quality gate: BM25 over SciFact's test split
// must reach nDCG@10 ≥ 0.665 and Recall@100 ≥ 0.90 (settings were tuned
// on the train split only).
func TestSciFactBM25(t *testing.T) {
	if testing.Short() {
		t.Skip("ingests 5,183 documents")
	}
	dataset, err := SharedDataset("scifact")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dataset); err != nil {
		t.Skipf("SciFact not found at %s (../shared/data/beir/scifact beside the repository): %v", dataset, err)
	}
	rep, err := Run(context.Background(), RunConfig{Dataset: dataset, Split: "test", Mode: retriever.ModeBM25})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SciFact test: nDCG@10 %.4f, Recall@100 %.4f, %d queries, %d docs in %d chunks, %.0f docs/s, p50 %.1f ms, p99 %.1f ms",
		rep.NDCG10, rep.Recall100, rep.Queries, rep.Documents, rep.Chunks, rep.DocsPerSec, rep.LatencyP50, rep.LatencyP99)
	if rep.Queries != 300 || rep.Documents != 5183 {
		t.Errorf("%d queries over %d documents, want 300 over 5183", rep.Queries, rep.Documents)
	}
	if rep.Mode != "bm25" {
		t.Errorf("mode %q", rep.Mode)
	}
	if rep.NDCG10 < 0.665 {
		t.Errorf("nDCG@10 = %.4f, below the 0.665 gate", rep.NDCG10)
	}
	if rep.Recall100 < 0.90 {
		t.Errorf("Recall@100 = %.4f, below the 0.90 gate", rep.Recall100)
	}
}
