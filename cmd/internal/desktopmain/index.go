package desktopmain

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/tools"
)

// indexOpener opens the configured document index for the documents tools,
// BM25 only: documents.dir, or index in toolhub's data directory.
func indexOpener(docs config.Documents, data string, log *slog.Logger) tools.IndexOpener {
	return func(context.Context) (*retriever.Index, error) {
		dir := filepath.Join(data, "index")
		if docs.Dir != "" {
			dir = docs.Dir
			if rest, ok := strings.CutPrefix(dir, "~/"); ok {
				if home, err := os.UserHomeDir(); err == nil {
					dir = filepath.Join(home, rest)
				}
			}
		}
		return retriever.Open(dir, retriever.Options{Logger: log})
	}
}
