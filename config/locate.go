package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolhub/toolhub/internal/fsutil"
)

// EnvVar names the environment variable that points at the config file.
const EnvVar = "TOOLHUB_CONFIG"

// Where a config path came from.
const (
	SourceFlag    = "flag"
	SourceEnv     = "env"
	SourceDefault = "default"
)

// Locate resolves the config file: the --config flag value, then
// $TOOLHUB_CONFIG, then toolhub/config.json in the user config directory
// ($XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on
// macOS, %AppData% on Windows). source is "flag", "env" or "default".
func Locate(flagValue string) (path, source string, err error) {
	switch {
	case flagValue != "":
		path, source = flagValue, SourceFlag
	case os.Getenv(EnvVar) != "":
		path, source = os.Getenv(EnvVar), SourceEnv
	default:
		dir, err := os.UserConfigDir()
		if err != nil {
			return "", "", fmt.Errorf("finding the user config directory (set --config or $%s): %w", EnvVar, err)
		}
		path, source = filepath.Join(dir, "toolhub", "config.json"), SourceDefault
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", fmt.Errorf("config path %s: %w", path, err)
	}
	return abs, source, nil
}

// DescribeSource says in words where a config path came from.
func DescribeSource(source string) string {
	switch source {
	case SourceFlag:
		return "from --config"
	case SourceEnv:
		return "from $" + EnvVar
	}
	return "the default location"
}

// Load reads and parses the config at path. A file missing from the default
// location is an empty configuration (toolhub runs with no servers); a
// missing file named by --config or $TOOLHUB_CONFIG is an error. Problems
// with the content are a *ProblemsError.
func Load(path, source string) (*File, error) {
	return load(path, source, Parse)
}

// LoadServe is Load for running the hub: a server entry with problems is
// kept aside (ParseServe) and the rest of the file is used.
func LoadServe(path, source string) (*File, error) {
	return load(path, source, ParseServe)
}

func load(path, source string, parse func(string, []byte) (*File, error)) (*File, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && source == SourceDefault:
		return &File{Path: path, MCPServers: map[string]Server{}}, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("config file %s (%s): %w (`toolhub config init` writes a starter there)", path, DescribeSource(source), fs.ErrNotExist)
	case err != nil:
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return parse(path, data)
}

// WriteFileAtomic replaces path with data so that readers see either the old
// or the new content, never a mix, even after a crash (fsutil.WriteFileAtomic).
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return fsutil.WriteFileAtomic(path, data, perm)
}

func wrapIf(err error, context string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", context, err)
}
