package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/internal/fsutil"
	"github.com/toolhub/toolhub/retriever"
)

// OpenIndex opens the document index the config names, with its embedder
// when withEmbedder is set: how every command and the desktop open it. An
// unusable embedder leaves the index BM25 only, and the index says why.
func OpenIndex(ctx context.Context, docs config.Documents, withEmbedder bool, log *slog.Logger) (*retriever.Index, error) {
	dir, err := IndexDir(docs)
	if err != nil {
		return nil, err
	}
	var emb retriever.Embedder
	var embErr error
	if withEmbedder && docs.Embedder != nil {
		if emb, embErr = NewEmbedder(ctx, docs.Embedder); embErr != nil {
			log.Warn("embedding endpoint unusable: BM25 only", "err", embErr)
			emb = nil
		}
	}
	opts := retriever.Options{Embedder: emb, EmbedderError: embErr, Logger: log}
	ix, err := retriever.OpenWaiting(ctx, dir, opts, IndexHandoverWait)
	if errors.Is(err, retriever.ErrInUse) {
		return nil, fmt.Errorf("%w: another toolhub process holds it (a `toolhub serve`, the desktop app or a command "+
			"such as `toolhub index add`) and did not hand it over within %s; a serve or the desktop app hands it "+
			"over once none of its calls needs it, a command when it ends; try again then, or point --config at "+
			"another documents.dir", err, IndexHandoverWait)
	}
	return ix, err
}

// IndexHandoverWait is how long opening the index waits for another
// toolhub process holding it to hand it over (tests shorten it).
var IndexHandoverWait = 15 * time.Second

// IndexDir is documents.dir, or index in toolhub's data directory.
func IndexDir(docs config.Documents) (string, error) {
	if docs.Dir != "" {
		home, _ := os.UserHomeDir()
		return config.ExpandHome(docs.Dir, home), nil
	}
	path, err := fsutil.DataPath("index")
	if err != nil {
		return "", fmt.Errorf("%w (set documents.dir)", err)
	}
	return path, nil
}

// NewEmbedder builds the embeddings client; a zero dimension is learnt
// from the endpoint.
func NewEmbedder(ctx context.Context, e *config.Embedder) (retriever.Embedder, error) {
	cfg := retriever.EmbedderConfig{URL: e.URL, Model: e.Model, Dimensions: e.Dimensions, BatchSize: e.BatchSize}
	if e.APIKeyEnv != "" {
		cfg.APIKey = os.Getenv(e.APIKeyEnv)
	}
	if cfg.Dimensions == 0 {
		// One quick attempt: a down endpoint must not stall every command.
		probeCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		probe := cfg
		probe.MaxRetries, probe.Backoff, probe.Timeout = 1, 200*time.Millisecond, 4*time.Second
		dims, err := retriever.DetectDimensions(probeCtx, probe)
		if err != nil {
			return nil, err
		}
		cfg.Dimensions = dims
	}
	return retriever.NewOpenAIEmbedder(cfg)
}
