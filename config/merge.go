package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// AddServers adds the named servers (all of them, sorted, when names is
// nil) to the toolhub config at path, keeping the file's comments and
// formatting. A server is skipped when its name is already present, when it
// starts the same command and args or connects to the same url as a server
// already there, or when it is invalid. Each skipped entry is written
// "name: reason". A missing file is created from Starter(); the file is
// replaced atomically, keeping its permissions (0600 when new).
func AddServers(path string, servers map[string]Server, names []string) (added, skipped []string, err error) {
	path = resolveLink(path)
	data, perm, err := readOrStarter(path)
	if err != nil {
		return nil, nil, err
	}
	current, err := Parse(path, data)
	if err != nil {
		return nil, nil, fmt.Errorf("fix the problems in %s before adding servers: %w", path, err)
	}
	tree, err := hujson.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	ed, err := newEditor(&tree)
	if err != nil {
		return nil, nil, err
	}
	if names == nil {
		names = slices.Sorted(maps.Keys(servers))
	}
	for _, name := range names {
		s, ok := servers[name]
		reason := "not in the source"
		if ok {
			reason = conflict(current.MCPServers, name, s)
		}
		if reason != "" {
			skipped = append(skipped, name+": "+reason)
			continue
		}
		if err := ed.addServer(name, s); err != nil {
			return nil, nil, fmt.Errorf("editing %s: %w", path, err)
		}
		current.MCPServers[name] = s
		added = append(added, name)
	}
	if len(added) == 0 {
		return added, skipped, nil
	}
	return added, skipped, writeChecked(path, tree.Pack(), perm)
}

// conflict says why s cannot be added as name, or returns "".
func conflict(existing map[string]Server, name string, s Server) string {
	if _, taken := existing[name]; taken {
		return "already in the config"
	}
	if msgs := checkServer(name, s); len(msgs) > 0 {
		return "invalid: " + strings.Join(msgs, "; ")
	}
	for _, other := range slices.Sorted(maps.Keys(existing)) {
		if sameServer(existing[other], s) {
			return fmt.Sprintf("duplicate of %q", other)
		}
	}
	return ""
}

// sameServer reports whether a and b start the same command with the same
// args, or connect to the same URL.
func sameServer(a, b Server) bool {
	if a.Command != "" || b.Command != "" {
		return a.Command == b.Command && slices.Equal(a.Args, b.Args)
	}
	return strings.TrimRight(a.URL, "/") == strings.TrimRight(b.URL, "/")
}

// readOrStarter reads the config, or returns Starter() when it is missing.
func readOrStarter(path string) ([]byte, os.FileMode, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Starter(), 0o600, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("reading config: %w", err)
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, 0, fmt.Errorf("reading config: %w", err)
	}
	return data, st.Mode().Perm(), nil
}

// writeChecked writes data after making sure it still parses cleanly.
func writeChecked(path string, data []byte, perm os.FileMode) error {
	if _, err := Parse(path, data); err != nil {
		return fmt.Errorf("the edited config would not be valid, nothing written: %w", err)
	}
	return WriteFileAtomic(path, data, perm)
}

// resolveLink follows a symlinked config so that the link is kept and its
// target is replaced.
func resolveLink(path string) string {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		return target
	}
	return path
}
