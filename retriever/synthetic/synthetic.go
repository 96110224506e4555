package synthetic

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/retriever/beir"
)

// Config sizes a run.
type Config struct {
	Chunks      int // documents of one chunk each
	Dims        int // vector dimension; default 768
	Queries     int // queries per mode; default 200
	WordsPerDoc int // default 60
	Progress    func(retriever.Event)
	// Reopen, when set, measures the reopened idle index in a fresh
	// process (see IdleMemory): it gets the index folder and the
	// dimension. Without it the index is reopened in this process.
	Reopen func(ctx context.Context, dir string, dims int) (Memory, error)
}

// Latency is a percentile summary in milliseconds.
type Latency struct {
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
}

// Report is the outcome of a run.
type Report struct {
	Chunks       int     `json:"chunks"`
	Dims         int     `json:"dims"`
	IngestSecs   float64 `json:"ingest_seconds"`
	ChunksPerSec float64 `json:"ingest_chunks_per_second"`
	BM25         Latency `json:"bm25"`
	Vector       Latency `json:"vector"`
	VectorPath   string  `json:"vector_path"`
	// Recall10 is the share of the exact top 10 (every float vector
	// scored) that the vector leg returns, averaged over RecallQueries.
	Recall10      float64 `json:"vector_recall_at_10"`
	RecallQueries int     `json:"recall_queries"`
	AfterIngest   Memory  `json:"memory_after_ingest"`
	AfterQueries  Memory  `json:"memory_after_queries"`
	ReopenedIdle  Memory  `json:"memory_reopened_idle"`
	// ReopenedIn is "fresh process" or "same process".
	ReopenedIn string `json:"reopened_in"`
	// CodeSlabMiB is the memory-mapped int8 code file; FloatMiB the float
	// vectors, which stay in Badger on disk.
	CodeSlabMiB float64 `json:"code_slab_mib"`
	FloatMiB    float64 `json:"float_vectors_mib"`
	DiskBytes   int64   `json:"disk_bytes"`
}

// recallQueries bounds the queries of the recall measurement, which reads
// every float vector once.
const recallQueries = 100

// ingestBatch is how many generated documents one IngestDocuments call
// takes, so a large run does not hold every document in memory at once.
const ingestBatch = 10_000

// Run builds a fresh index of cfg.Chunks generated documents with random
// vectors, through IngestDocuments, then times queries in BM25 and vector
// mode, and finally reopens the index to measure an idle process.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg = withDefaults(cfg)
	dir, err := os.MkdirTemp("", "toolhub-synthetic-")
	if err != nil {
		return nil, err
	}
	defer func() { _ = os.RemoveAll(dir) }()
	emb := randomEmbedder{dims: cfg.Dims}
	opts := retriever.Options{Embedder: emb}
	rep := &Report{
		Chunks: cfg.Chunks, Dims: cfg.Dims,
		CodeSlabMiB: float64(cfg.Chunks*cfg.Dims) / (1 << 20), FloatMiB: float64(cfg.Chunks*cfg.Dims*4) / (1 << 20),
		VectorPath: fmt.Sprintf("int8 code scan, exact float re-rank of %d read from disk", retriever.DefaultCandidates),
	}
	gen := newTextGen(42, 20_000)
	if err := ingest(ctx, dir, opts, gen, cfg, rep); err != nil {
		return nil, err
	}
	if cfg.Reopen != nil {
		rep.ReopenedIn = "fresh process"
		if rep.ReopenedIdle, err = cfg.Reopen(ctx, dir, cfg.Dims); err != nil {
			return nil, fmt.Errorf("measure the reopened index: %w", err)
		}
	}
	ix, err := retriever.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	defer func() { _ = ix.Close() }()
	if cfg.Reopen == nil {
		rep.ReopenedIn = "same process"
		if rep.ReopenedIdle, err = quietMemory(ctx); err != nil {
			return nil, err
		}
	}
	if err := timeQueries(ctx, ix, gen, cfg, rep); err != nil {
		return nil, err
	}
	if rep.AfterQueries, err = ReadMemory(); err != nil {
		return nil, err
	}
	if err := measureRecall(ctx, ix, gen, cfg, rep); err != nil {
		return nil, err
	}
	st, err := ix.Status()
	rep.DiskBytes = st.DiskBytes
	return rep, err
}

func withDefaults(cfg Config) Config {
	if cfg.Dims <= 0 {
		cfg.Dims = 768
	}
	if cfg.Queries <= 0 {
		cfg.Queries = 200
	}
	if cfg.WordsPerDoc <= 0 {
		cfg.WordsPerDoc = 60
	}
	return cfg
}

// ingest fills the index and closes it.
func ingest(ctx context.Context, dir string, opts retriever.Options, gen *textGen, cfg Config, rep *Report) error {
	ix, err := retriever.Open(dir, opts)
	if err != nil {
		return err
	}
	start := time.Now()
	chunks := 0
	for from := 0; from < cfg.Chunks; from += ingestBatch {
		docs := gen.documents(from, min(ingestBatch, cfg.Chunks-from), cfg.WordsPerDoc)
		ir, err := ix.IngestDocuments(ctx, docs, retriever.IngestOptions{Progress: cfg.Progress})
		if err == nil && ir.EmbedError != "" {
			err = errors.New(ir.EmbedError)
		}
		if err != nil {
			_ = ix.Close()
			return fmt.Errorf("ingest: %w", err)
		}
		chunks += ir.Chunks
	}
	rep.IngestSecs = time.Since(start).Seconds()
	rep.ChunksPerSec = float64(chunks) / rep.IngestSecs
	if rep.AfterIngest, err = ReadMemory(); err != nil {
		_ = ix.Close()
		return err
	}
	return ix.Close()
}

// timeQueries runs cfg.Queries queries of 2–4 words in each mode.
func timeQueries(ctx context.Context, ix *retriever.Index, gen *textGen, cfg Config, rep *Report) error {
	for _, mode := range []retriever.Mode{retriever.ModeBM25, retriever.ModeVector} {
		var lat []time.Duration
		for i := range cfg.Queries {
			q := retriever.Query{Text: gen.phrase(2 + i%3), K: 10, Mode: mode}
			start := time.Now()
			if _, err := ix.Search(ctx, q); err != nil {
				return fmt.Errorf("%s query: %w", mode, err)
			}
			lat = append(lat, time.Since(start))
		}
		l := Latency{P50: ms(beir.Percentile(lat, 50)), P99: ms(beir.Percentile(lat, 99))}
		if mode == retriever.ModeBM25 {
			rep.BM25 = l
		} else {
			rep.Vector = l
		}
	}
	return nil
}

// measureRecall compares the vector leg with an exact scan of every float.
func measureRecall(ctx context.Context, ix *retriever.Index, gen *textGen, cfg Config, rep *Report) error {
	texts := make([]string, min(cfg.Queries, recallQueries))
	for i := range texts {
		texts[i] = gen.phrase(2 + i%3)
	}
	r, err := ix.MeasureVectorRecall(ctx, texts, 10)
	if err != nil {
		return err
	}
	rep.Recall10, rep.RecallQueries = r.Recall, r.Queries
	return nil
}

// settle returns freed memory to the OS so the resident size is not
// inflated by garbage from the previous phase.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
