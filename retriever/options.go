package retriever

import (
	"log/slog"
	"runtime"
	"time"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
)

// Defaults used when the matching Options field is zero.
const (
	DefaultChunkBytes   = 2000
	DefaultCandidates   = 100
	DefaultMaxFileBytes = 10 << 20
	bleveBatchChunks    = 500
)

// Options configure an Index. The zero value is a BM25-only index with the
// default chunk size.
type Options struct {
	// Embedder produces chunk and query vectors. Nil means BM25 only.
	Embedder Embedder
	// ChunkBytes is the largest chunk cut from a document, in bytes.
	ChunkBytes int
	// Candidates is how many rows the int8 code scan passes on to the
	// exact float re-rank, at least twice the hits wanted; default 100.
	Candidates int
	// EmbedderError, when set with no Embedder, says why the configured
	// embedder could not be used; search notes name it.
	EmbedderError error
	// QueryEmbedTimeout bounds the embedding of one query; default 2 s.
	QueryEmbedTimeout time.Duration
	// ProbeInterval is the first wait before an unreachable embedder is
	// tried again; it doubles up to two minutes. Default 5 s.
	ProbeInterval time.Duration
	// Logger receives diagnostics; nil uses slog.Default().
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.ChunkBytes <= 0 {
		o.ChunkBytes = DefaultChunkBytes
	}
	if o.Candidates <= 0 {
		o.Candidates = DefaultCandidates
	}
	if o.QueryEmbedTimeout <= 0 {
		o.QueryEmbedTimeout = DefaultQueryEmbedTimeout
	}
	if o.ProbeInterval <= 0 {
		o.ProbeInterval = DefaultProbeInterval
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// badgerOptions sizes Badger for a desktop. Badger's defaults target
// servers (64 MiB memtables, five of them, a 256 MiB block cache and 1 GiB
// value-log files), which would keep an idle hub at hundreds of MiB.
//
// Tables keep the same size at every level (TableSizeMultiplier 1): a
// compaction's table builders hold twice the table size each, so 2 MiB
// tables keep a compaction after reopening at a few MiB where growing
// tables took close to 100 MiB.
func badgerOptions(dir string, log *slog.Logger) badger.Options {
	opts := badger.DefaultOptions(dir).
		WithLogger(badgerLogger{log: log}).
		WithMetricsEnabled(false).
		WithNumVersionsToKeep(1).
		WithMemTableSize(8 << 20).
		WithNumMemtables(2).
		WithNumLevelZeroTables(2).
		WithNumLevelZeroTablesStall(8).
		WithBaseTableSize(2 << 20).
		WithBaseLevelSize(8 << 20).
		WithBlockCacheSize(8 << 20).
		WithIndexCacheSize(4 << 20).
		WithValueThreshold(1 << 10).
		WithValueLogFileSize(32 << 20).
		WithNumCompactors(2).
		WithNumGoroutines(min(4, runtime.GOMAXPROCS(0))).
		WithCompression(options.Snappy).
		WithDetectConflicts(false).
		WithCompactL0OnClose(true)
	opts.TableSizeMultiplier = 1
	return opts
}
