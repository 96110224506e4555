package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
)

// servers is what Reload needs to rebuild the hub's set: the config it
// last read, how its ${VAR} references resolve, and toolhub's own
// providers, which a reload keeps as they are.
type servers struct {
	cfg       *config.File
	lookupEnv func(string) (string, bool)
	builtins  []hub.ServerSpec
}

// Config is the configuration the servers were last read from: the one
// the daemon was built from, or the file as the latest Reload found it.
func (d *Daemon) Config() *config.File {
	d.reloadMu.Lock()
	defer d.reloadMu.Unlock()
	return d.servers.cfg
}

// Builtin reports whether name is one of toolhub's own providers (the
// documents search, python, web search) rather than a configured server.
func (d *Daemon) Builtin(name string) bool {
	d.reloadMu.Lock()
	defer d.reloadMu.Unlock()
	return slices.ContainsFunc(d.servers.builtins, func(s hub.ServerSpec) bool { return s.Name == name })
}

// Reload reads the config file again and applies its servers to the
// running hub (hub.Apply): added servers start, removed ones stop, edited
// ones restart, the others go on untouched. A file that cannot be read or
// parsed changes nothing; an entry with problems is listed as invalid, as
// at start. A config held only in memory has nothing to reload.
func (d *Daemon) Reload(ctx context.Context) (hub.Changes, error) {
	d.reloadMu.Lock()
	defer d.reloadMu.Unlock()
	path := d.servers.cfg.Path
	if path == "" {
		return hub.Changes{}, nil
	}
	cfg, err := readServeConfig(path)
	if err != nil {
		return hub.Changes{}, fmt.Errorf("reload config: %w", err)
	}
	specs := cfg.ServeSpecs(d.servers.lookupEnv)
	for _, b := range d.servers.builtins {
		if specs, err = withBuiltin(specs, b); err != nil {
			return hub.Changes{}, fmt.Errorf("reload config: %w", err)
		}
	}
	ch, err := d.hub.Apply(ctx, specs)
	d.servers.cfg = cfg
	if !ch.Empty() {
		d.log.Info("config changed: servers applied", "added", ch.Added, "removed", ch.Removed,
			"restarted", ch.Restarted)
	}
	if err != nil {
		return ch, fmt.Errorf("reload config: %w", err)
	}
	return ch, nil
}

// readServeConfig parses the file as serve does; a missing file is a
// config without servers.
func readServeConfig(path string) (*config.File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &config.File{Path: path, MCPServers: map[string]config.Server{}}, nil
	}
	if err != nil {
		return nil, err
	}
	return config.ParseServe(path, data)
}
