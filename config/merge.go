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
	plan, err := PlanAdd(path, servers, names)
	if err != nil {
		return nil, nil, err
	}
	return plan.Added, plan.Skipped, plan.Write()
}

// AddPlan is what AddServers will do, so that the servers can still be
// changed (their literal secrets moved out) before anything is written.
type AddPlan struct {
	Path    string
	Added   []string          // the servers Write adds, in order
	Skipped []string          // "name: reason"
	Servers map[string]Server // the servers to add, by name; Write writes them as they are then
	data    []byte
	perm    os.FileMode
}

// PlanAdd reads the config at path and decides which of the named servers
// (all, sorted, when names is nil) AddServers would add and which it
// would skip; nothing is written.
func PlanAdd(path string, servers map[string]Server, names []string) (*AddPlan, error) {
	path = resolveLink(path)
	data, perm, err := readOrStarter(path)
	if err != nil {
		return nil, err
	}
	current, err := Parse(path, data)
	if err != nil {
		return nil, fmt.Errorf("fix the problems in %s before adding servers: %w", path, err)
	}
	if names == nil {
		names = slices.Sorted(maps.Keys(servers))
	}
	p := &AddPlan{Path: path, Servers: map[string]Server{}, data: data, perm: perm}
	for _, name := range names {
		s, ok := servers[name]
		reason := "not in the source"
		if ok {
			reason = conflict(current.MCPServers, name, s)
		}
		if reason != "" {
			p.Skipped = append(p.Skipped, name+": "+reason)
			continue
		}
		current.MCPServers[name] = s
		p.Servers[name] = s
		p.Added = append(p.Added, name)
	}
	return p, nil
}

// Write adds the planned servers to the config, or does nothing when none
// is planned.
func (p *AddPlan) Write() error {
	if len(p.Added) == 0 {
		return nil
	}
	tree, err := hujson.Parse(p.data)
	if err != nil {
		return fmt.Errorf("parsing %s: %w", p.Path, err)
	}
	ed, err := newEditor(&tree)
	if err != nil {
		return err
	}
	for _, name := range p.Added {
		if err := ed.addServer(name, p.Servers[name]); err != nil {
			return fmt.Errorf("editing %s: %w", p.Path, err)
		}
	}
	return writeChecked(p.Path, tree.Pack(), p.perm)
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
