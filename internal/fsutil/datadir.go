package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// DataDir is toolhub's own data directory: $XDG_DATA_HOME/toolhub when
// XDG_DATA_HOME is an absolute path (the XDG rule: a relative one is
// ignored), else ~/.local/share/toolhub; on Windows %LOCALAPPDATA%\toolhub,
// unless ~/.local/share/toolhub already exists (where toolhub kept its
// data before), which is then kept. The run log, the index, eval journals
// and the knn training file live under it.
func DataDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	dir := dataDirOf(dataDirEnv{
		xdg: os.Getenv("XDG_DATA_HOME"), home: home,
		localAppData: os.Getenv("LOCALAPPDATA"), windows: onWindows,
	}, isDir)
	if dir == "" {
		return "", fmt.Errorf("no data directory: %w", err)
	}
	return dir, nil
}

// dataDirEnv is what DataDir reads of its platform.
type dataDirEnv struct {
	xdg, home, localAppData string
	windows                 bool
}

// dataDirOf is DataDir's rule; "" when there is no directory to use.
func dataDirOf(env dataDirEnv, exists func(string) bool) string {
	if filepath.IsAbs(env.xdg) {
		return filepath.Join(env.xdg, "toolhub")
	}
	var legacy string
	if env.home != "" {
		legacy = filepath.Join(env.home, ".local", "share", "toolhub")
	}
	if !env.windows || (legacy != "" && exists(legacy)) || !filepath.IsAbs(env.localAppData) {
		return legacy
	}
	return filepath.Join(env.localAppData, "toolhub")
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// DataPath is name inside DataDir.
func DataPath(name string) (string, error) {
	dir, err := DataDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name), nil
}
