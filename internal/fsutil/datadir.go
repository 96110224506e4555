package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// DataDir is toolhub's own data directory: $XDG_DATA_HOME/toolhub when
// XDG_DATA_HOME is an absolute path (the XDG rule: a relative one is
// ignored), else ~/.local/share/toolhub. The run log, the index, eval
// journals and the knn training file live under it.
func DataDir() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "toolhub"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no data directory: %w", err)
	}
	return filepath.Join(home, ".local", "share", "toolhub"), nil
}

// DataPath is name inside DataDir.
func DataPath(name string) (string, error) {
	dir, err := DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}
