package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/retriever/beir"
	"github.com/toolhub/toolhub/retriever/synthetic"
)

// Quality gates of the BM25 run on SciFact's test split.
const (
	gateNDCG10    = 0.665
	gateRecall100 = 0.90
)

// benchRetrievalFlags are the flags of `bench retrieval`.
type benchRetrievalFlags struct {
	dataset, split, mode   string
	embedURL, embedModel   string
	apiKeyEnv              string
	dims, synthetic, query int
	asJSON                 bool
	idleMemory             string // internal: measure a reopened synthetic index in this process
}

func newBenchRetrievalCommand(g *globals) *cobra.Command {
	var f benchRetrievalFlags
	cmd := &cobra.Command{
		Use:   "retrieval",
		Short: "Measure document search quality and speed",
		Long: `With --dataset DIR (a BEIR folder: corpus.jsonl.gz, queries.jsonl,
qrels/<split>.tsv) it ingests the corpus into a fresh temporary index, one
document per entry (title and text), through the same ingest path as files,
runs every judged query of --split and prints nDCG@10, Recall@100, ingest
throughput and query latency p50/p99. BM25 by default; with --embedder URL it
runs hybrid search against that OpenAI-compatible endpoint.

With --synthetic N it indexes N generated one-chunk documents with random
--dims vectors (768 by default) and prints ingest throughput, BM25 and
vector query latency p50/p99, the recall@10 of the vector leg (int8 code
scan, exact re-rank) against an exact scan of every float vector, resident
memory (VmRSS/VmHWM; "reopened, idle" is the index opened again in a fresh
process after the ingest, once its stores have settled, before any query)
and disk use.`,
		Example: `  toolhub bench retrieval --dataset ../shared/data/beir/scifact --split test
  toolhub bench retrieval --dataset ../shared/data/beir/scifact --embedder http://localhost:11434/v1 --embed-model nomic-embed-text
  toolhub bench retrieval --synthetic 100000 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case f.idleMemory != "":
				return g.benchIdleMemory(cmd, f)
			case (f.dataset == "") == (f.synthetic == 0):
				return usageError("give exactly one of --dataset DIR and --synthetic N")
			case f.synthetic < 0:
				return usageError("--synthetic %d: want a positive number of chunks", f.synthetic)
			case f.synthetic > 0:
				return g.benchSynthetic(cmd, f)
			}
			return g.benchDataset(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.dataset, "dataset", "", "BEIR dataset folder")
	fl.StringVar(&f.split, "split", "test", "qrels split to score (tune on train, report test)")
	fl.StringVar(&f.mode, "mode", "", "bm25, vector or hybrid (default: hybrid with --embedder, else bm25)")
	fl.StringVar(&f.embedURL, "embedder", "", "OpenAI-compatible embeddings endpoint for hybrid search")
	fl.StringVar(&f.embedModel, "embed-model", "nomic-embed-text", "embedding model name")
	fl.StringVar(&f.apiKeyEnv, "api-key-env", "", "environment variable holding the endpoint's API key")
	fl.IntVar(&f.dims, "dims", 0, "vector dimension (dataset: 0 asks the endpoint; synthetic: default 768)")
	fl.IntVar(&f.synthetic, "synthetic", 0, "index N generated chunks instead of a dataset")
	fl.IntVar(&f.query, "queries", 200, "queries per mode in the synthetic run")
	fl.BoolVar(&f.asJSON, "json", false, "print JSON")
	fl.StringVar(&f.idleMemory, "idle-memory", "", "measure the memory of a reopened synthetic index in DIR (used by --synthetic)")
	_ = fl.MarkHidden("idle-memory")
	return cmd
}

func (g *globals) benchDataset(cmd *cobra.Command, f benchRetrievalFlags) error {
	if err := needFolder(f.dataset, "--dataset", "a BEIR dataset folder (corpus.jsonl, queries.jsonl, qrels/)"); err != nil {
		return err
	}
	cfg := beir.RunConfig{Dataset: f.dataset, Split: f.split, Mode: retriever.Mode(f.mode)}
	if f.embedURL != "" {
		emb, err := daemon.NewEmbedder(cmd.Context(), &config.Embedder{URL: f.embedURL, Model: f.embedModel, Dimensions: f.dims, APIKeyEnv: f.apiKeyEnv})
		if err != nil {
			return fmt.Errorf("embedder: %w", err)
		}
		cfg.Options.Embedder = emb
		if cfg.Mode == retriever.ModeAuto {
			cfg.Mode = retriever.ModeHybrid
		}
	}
	if cfg.Mode == retriever.ModeAuto {
		cfg.Mode = retriever.ModeBM25
	}
	progress, done := g.ingestProgress()
	cfg.Progress = progress
	rep, err := beir.Run(cmd.Context(), cfg)
	done()
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(g.stdio.Out, rep)
	}
	printBEIRReport(g.stdio.Out, rep)
	return nil
}

func printBEIRReport(w io.Writer, rep *beir.Report) {
	fmt.Fprintf(w, "%s, split %s: %d queries over %s (%s), mode %s\n", rep.Dataset, rep.Split, rep.Queries,
		conductor.Count(rep.Documents, "document"), conductor.Count(rep.Chunks, "chunk"), rep.Mode)
	gated := rep.Mode == string(retriever.ModeBM25) && rep.Split == "test"
	fmt.Fprintf(w, "  nDCG@10     %.4f%s\n", rep.NDCG10, gate(gated, rep.NDCG10, gateNDCG10))
	fmt.Fprintf(w, "  Recall@100  %.4f%s\n", rep.Recall100, gate(gated, rep.Recall100, gateRecall100))
	fmt.Fprintf(w, "  ingest      %.0f docs/s (%.1f s)\n", rep.DocsPerSec, rep.IngestSecs)
	fmt.Fprintf(w, "  latency     p50 %.1f ms  p99 %.1f ms (k = 100)\n", rep.LatencyP50, rep.LatencyP99)
	fmt.Fprintf(w, "  index       %s on disk\n", humanSize(rep.IndexBytes))
	if rep.EmbedError != "" {
		fmt.Fprintf(w, "  vectors     failed: %s\n", rep.EmbedError)
	}
}

func gate(on bool, got, want float64) string {
	switch {
	case !on:
		return ""
	case got >= want:
		return fmt.Sprintf("  (gate ≥ %.3g: pass)", want)
	default:
		return fmt.Sprintf("  (gate ≥ %.3g: FAIL)", want)
	}
}

func (g *globals) benchSynthetic(cmd *cobra.Command, f benchRetrievalFlags) error {
	progress, done := g.ingestProgress()
	rep, err := synthetic.Run(cmd.Context(), synthetic.Config{
		Chunks: f.synthetic, Dims: f.dims, Queries: f.query, Progress: progress, Reopen: reopenSynthetic,
	})
	done()
	if err != nil {
		return err
	}
	if f.asJSON {
		return writeJSON(g.stdio.Out, rep)
	}
	w := g.stdio.Out
	fmt.Fprintf(w, "synthetic: %s, %d-dimensional random vectors\n", conductor.Count(rep.Chunks, "one-chunk document"), rep.Dims)
	fmt.Fprintf(w, "  ingest        %.0f chunks/s (%s)\n", rep.ChunksPerSec, time.Duration(rep.IngestSecs*float64(time.Second)).Round(time.Millisecond))
	fmt.Fprintf(w, "  BM25 query    p50 %.2f ms  p99 %.2f ms\n", rep.BM25.P50, rep.BM25.P99)
	fmt.Fprintf(w, "  vector query  p50 %.2f ms  p99 %.2f ms (%s)\n", rep.Vector.P50, rep.Vector.P99, rep.VectorPath)
	fmt.Fprintf(w, "  recall@10     %.4f of the exact float scan (%d queries)\n", rep.Recall10, rep.RecallQueries)
	fmt.Fprintf(w, "  memory (RSS = process + mapped files; int8 codes %.0f MiB mapped, float vectors %.0f MiB on disk)\n",
		rep.CodeSlabMiB, rep.FloatMiB)
	for _, m := range []struct {
		when string
		mem  synthetic.Memory
	}{{"after ingest", rep.AfterIngest}, {"reopened, idle (" + rep.ReopenedIn + ")", rep.ReopenedIdle}, {"after queries", rep.AfterQueries}} {
		fmt.Fprintf(w, "    %-32s %s = %s + %s (peak %s)\n", m.when, humanSize(m.mem.RSSBytes), humanSize(m.mem.AnonBytes),
			humanSize(m.mem.FileBytes), humanSize(m.mem.PeakBytes))
	}
	fmt.Fprintf(w, "  disk          %s\n", humanSize(rep.DiskBytes))
	return nil
}
