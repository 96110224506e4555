package desktopmain

import (
	"context"
	"log/slog"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/tools"
)

// indexOpener opens the configured document index for the documents tools
// as the CLI does, with the configured embedder (daemon.OpenIndex).
func indexOpener(docs config.Documents, log *slog.Logger) tools.IndexOpener {
	return func(ctx context.Context) (*retriever.Index, error) {
		return daemon.OpenIndex(ctx, docs, true, log)
	}
}
