package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
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

// openIndex opens the index the config names (daemon.OpenIndex).
func (g *globals) openIndex(ctx context.Context, docs config.Documents, withEmbedder bool) (*retriever.Index, error) {
	return daemon.OpenIndex(ctx, docs, withEmbedder, g.logger())
}

// indexDir is where the config's index lives (daemon.IndexDir).
func indexDir(docs config.Documents) (string, error) { return daemon.IndexDir(docs) }

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
