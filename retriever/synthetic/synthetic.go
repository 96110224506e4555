package synthetic

import (
	"context"
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
}

// Latency is a percentile summary in milliseconds.
type Latency struct {
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
}

// Report is the outcome of a run.
type Report struct {
	Chunks        int     `json:"chunks"`
	Dims          int     `json:"dims"`
	IngestSecs    float64 `json:"ingest_seconds"`
	ChunksPerSec  float64 `json:"ingest_chunks_per_second"`
	BM25          Latency `json:"bm25"`
	Vector        Latency `json:"vector"`
	VectorPath    string  `json:"vector_path"` // "exact scan" or "sign-code prefilter + exact re-rank"
	AfterIngest   Memory  `json:"memory_after_ingest"`
	AfterQueries  Memory  `json:"memory_after_queries"`
	ReopenedIdle  Memory  `json:"memory_reopened_idle"`
	VectorSlabMiB float64 `json:"vector_slab_mib"`
	DiskBytes     int64   `json:"disk_bytes"`
}

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
	rep := &Report{Chunks: cfg.Chunks, Dims: cfg.Dims, VectorSlabMiB: float64(cfg.Chunks*cfg.Dims*4) / (1 << 20)}
	rep.VectorPath = "exact scan"
	if cfg.Chunks > retriever.DefaultExactScanLimit {
		rep.VectorPath = "sign-code prefilter + exact re-rank"
	}
	gen := newTextGen(42, 20_000)
	if err := ingest(ctx, dir, opts, gen, cfg, rep); err != nil {
		return nil, err
	}
	ix, err := retriever.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	defer func() { _ = ix.Close() }()
	settle()
	if rep.ReopenedIdle, err = ReadMemory(); err != nil {
		return nil, err
	}
	if err := timeQueries(ctx, ix, gen, cfg, rep); err != nil {
		return nil, err
	}
	if rep.AfterQueries, err = ReadMemory(); err != nil {
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
	docs := gen.documents(cfg.Chunks, cfg.WordsPerDoc)
	start := time.Now()
	ir, err := ix.IngestDocuments(ctx, docs, retriever.IngestOptions{Progress: cfg.Progress})
	if err != nil {
		_ = ix.Close()
		return fmt.Errorf("ingest: %w", err)
	}
	rep.IngestSecs = time.Since(start).Seconds()
	rep.ChunksPerSec = float64(ir.Chunks) / rep.IngestSecs
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

// settle returns freed memory to the OS so the resident size is not
// inflated by garbage from the previous phase.
func settle() {
	runtime.GC()
	debug.FreeOSMemory()
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
