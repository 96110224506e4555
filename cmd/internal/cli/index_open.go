package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/internal/fsutil"
	"github.com/toolhub/toolhub/retriever"
)

// openConfiguredIndex loads the config and opens its index.
func (g *globals) openConfiguredIndex(ctx context.Context, withEmbedder bool) (*retriever.Index, config.Documents, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, config.Documents{}, err
	}
	ix, err := g.openIndex(ctx, cfg.Documents, withEmbedder)
	return ix, cfg.Documents, err
}

// openIndex opens the index the config names, with its embedder when
// withEmbedder is set. An unusable embedder leaves the index BM25 only.
func (g *globals) openIndex(ctx context.Context, docs config.Documents, withEmbedder bool) (*retriever.Index, error) {
	dir, err := indexDir(docs)
	if err != nil {
		return nil, err
	}
	var emb retriever.Embedder
	var embErr error
	if withEmbedder && docs.Embedder != nil {
		if emb, embErr = newEmbedder(ctx, docs.Embedder); embErr != nil {
			g.logger().Warn("embedding endpoint unusable: BM25 only", "err", embErr)
			emb = nil
		}
	}
	ix, err := retriever.Open(dir, retriever.Options{Embedder: emb, EmbedderError: embErr, Logger: g.logger()})
	if errors.Is(err, retriever.ErrInUse) {
		return nil, fmt.Errorf("%w: stop `toolhub serve` (or the desktop app) first, or point --config at another documents.dir", err)
	}
	return ix, err
}

// indexDir is documents.dir, or <user data dir>/toolhub/index.
func indexDir(docs config.Documents) (string, error) {
	home, _ := os.UserHomeDir()
	if docs.Dir != "" {
		if rest, ok := strings.CutPrefix(docs.Dir, "~/"); ok && home != "" {
			return filepath.Join(home, rest), nil
		}
		return docs.Dir, nil
	}
	path, err := fsutil.DataPath("index")
	if err != nil {
		return "", fmt.Errorf("%w (set documents.dir)", err)
	}
	return path, nil
}

// newEmbedder builds the embeddings client; a zero dimension is learnt
// from the endpoint.
func newEmbedder(ctx context.Context, e *config.Embedder) (retriever.Embedder, error) {
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

func configuredEmbedder(e *config.Embedder) string {
	switch {
	case e == nil:
		return ""
	case e.Dimensions > 0:
		return fmt.Sprintf("%s@%d", e.Model, e.Dimensions)
	default:
		return e.Model + " (dimensions from the endpoint)"
	}
}

// absIfExists makes a relative path absolute when it names a file or
// folder; document paths that are not files are left alone.
func absIfExists(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if _, err := os.Stat(p); err != nil {
		return p
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}
