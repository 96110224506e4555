package daemon

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/policies"
)

// openPreferences opens the preferences file beside the config. A config
// held only in memory has none (episodes then run unrestricted). watch
// follows the file live, creating its folder when needed; one-shot
// commands read it once.
func openPreferences(cfg *config.File, watch bool, log *slog.Logger) (*policies.Store, error) {
	path := policies.PreferencesPath(cfg.Path)
	if path == "" {
		return nil, nil
	}
	if watch {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("preferences folder: %w", err)
		}
	}
	st, err := policies.OpenStore(path, policies.StoreOptions{Logger: log, NoWatch: !watch,
		OnError: func(err error) {
			log.Warn("the preferences file is invalid; the previous preferences stay in force", "err", err)
		}})
	if err != nil {
		return nil, err
	}
	return st, nil
}
