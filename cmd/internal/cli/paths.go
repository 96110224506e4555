package cli

import (
	"errors"
	"io/fs"
	"os"

	"github.com/toolhub/toolhub/config"
)

// needPath refuses a path the user named where there is nothing: "no file
// or folder at X".
func needPath(path string) error {
	_, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageError("no file or folder at %s", path)
	case err != nil:
		return asUsage(err)
	}
	return nil
}

// needFile refuses a path the user named that is missing or a folder:
// "no file at X", or "X is a folder; who wants kind" (who is a flag or a
// command, kind what it reads, such as "a JSONL file").
func needFile(path, who, kind string) error { return needKind(path, who, kind, false) }

// needFolder refuses a path the user named that is missing or a file: "no
// folder at X", or "X is a file; who wants kind".
func needFolder(path, who, kind string) error { return needKind(path, who, kind, true) }

// needKind refuses a path that is missing, or is a folder where a file is
// wanted (folder false) or a file where a folder is.
func needKind(path, who, kind string, folder bool) error {
	noun, other := "file", "folder"
	if folder {
		noun, other = other, noun
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageError("no %s at %s", noun, path)
	case err != nil:
		return asUsage(err)
	case st.IsDir() != folder:
		return usageError("%s is a %s; %s wants %s", path, other, who, kind)
	}
	return nil
}

// locateConfig is where the config file is (config.Locate) and where that
// path came from; a folder there is refused, as no config can be read or
// written at it.
func (g *globals) locateConfig() (path, source string, err error) {
	path, source, err = config.Locate(g.configPath)
	if err != nil {
		return "", "", asUsage(err)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return "", "", usageError("%s is a folder, not a config file (%s)", path, config.DescribeSource(source))
	}
	return path, source, nil
}
