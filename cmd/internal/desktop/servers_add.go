package desktop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/config"
)

// AddServersJSON implements ui.ServersBackend: the snippet is read as a
// client config file would be and its servers are added to the config file.
func (b *Backend) AddServersJSON(ctx context.Context, snippet string) ([]string, error) {
	dir, err := os.MkdirTemp("", "toolhub-snippet-")
	if err != nil {
		return nil, fmt.Errorf("add servers: %w", err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(path, []byte(snippet), 0o600); err != nil {
		return nil, fmt.Errorf("add servers: %w", err)
	}
	return b.ImportClientConfig(ctx, path)
}

// ImportClientConfig implements ui.ServersBackend. The servers are written
// to the config file; the hub starts them on its next start.
func (b *Backend) ImportClientConfig(_ context.Context, path string) ([]string, error) {
	if b.opts.Config.Path == "" {
		return nil, errors.New("import servers: the configuration has no file to add them to")
	}
	cf, err := config.ReadClientFile(path)
	if err != nil {
		return nil, fmt.Errorf("import servers: %w", err)
	}
	for _, w := range cf.Warnings {
		b.log.Info("importing servers", "file", path, "warning", w)
	}
	added, skipped, err := config.AddServers(b.opts.Config.Path, cf.Servers, nil)
	if err != nil {
		return nil, fmt.Errorf("import servers: %w", err)
	}
	if len(added) == 0 && len(skipped) > 0 {
		return nil, fmt.Errorf("import servers: %v are already configured", skipped)
	}
	return added, nil
}
