package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
)

// servers is what Reload needs to rebuild the hub's set: the config it
// last read, how its ${VAR} and ${keychain:NAME} references resolve, and toolhub's own
// providers, which a reload keeps as they are. Only cfg changes.
type servers struct {
	lookup   config.Lookup
	builtins []hub.ServerSpec

	mu  sync.Mutex // guards cfg; never held while servers start or stop
	cfg *config.File
}

// Config is the configuration the servers were last read from: the one
// the daemon was built from, or the file as the latest Reload found it.
func (d *Daemon) Config() *config.File {
	d.servers.mu.Lock()
	defer d.servers.mu.Unlock()
	return d.servers.cfg
}

// Builtin reports whether name is one of toolhub's own providers (the
// documents search, python, web search) rather than a configured server.
func (d *Daemon) Builtin(name string) bool {
	return slices.ContainsFunc(d.servers.builtins, func(s hub.ServerSpec) bool { return s.Name == name })
}

// Reload reads the config file again and applies its servers to the
// running hub (hub.Apply): added servers start, removed ones stop, edited
// ones restart, the others go on untouched. Its models and orchestrator
// apply to the next episode (ApplyModels), its document roots at once. A file that cannot be read or
// parsed changes nothing; an entry with problems is listed as invalid, as
// at start. A config held only in memory has nothing to reload.
func (d *Daemon) Reload(ctx context.Context) (hub.Changes, error) {
	d.reloadMu.Lock()
	defer d.reloadMu.Unlock()
	path := d.Config().Path
	if path == "" {
		return hub.Changes{}, nil
	}
	cfg, err := readServeConfig(path)
	if err != nil {
		return hub.Changes{}, fmt.Errorf("reload config: %w", err)
	}
	logLeftOut(d.log, cfg.LeftOut)
	specs := cfg.WithOAuth(cfg.ServeSpecsFrom(d.servers.lookup), d.servers.lookup)
	for _, b := range d.servers.builtins {
		if specs, err = withBuiltin(specs, b); err != nil {
			return hub.Changes{}, fmt.Errorf("reload config: %w", err)
		}
	}
	d.servers.mu.Lock()
	d.servers.cfg = cfg
	d.servers.mu.Unlock()
	d.reloadModels(cfg)
	d.reloadDocumentRoots(cfg)
	ch, err := d.hub.Apply(ctx, specs)
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

// Delays of the config watch: how long the file must stay quiet after a
// change before it is read, and how long one reload may take.
const (
	configQuiet   = 250 * time.Millisecond
	reloadTimeout = 60 * time.Second
)

// configWatch reloads the servers whenever the config file changes. It
// watches the folder, not the file: an atomic save replaces the file by a
// rename, which a watch on the old file would not follow.
type configWatch struct {
	w    *fsnotify.Watcher
	done chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

// watchConfig calls reload once path has been quiet for configQuiet after
// a change, until close.
func watchConfig(path string, reload func(context.Context) error, log *slog.Logger) (*configWatch, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch config: %w", err)
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("watch config: %w", err)
	}
	cw := &configWatch{w: w, done: make(chan struct{})}
	cw.wg.Add(1)
	go cw.loop(filepath.Clean(path), reload, log)
	return cw, nil
}

func (cw *configWatch) loop(path string, reload func(context.Context) error, log *slog.Logger) {
	defer cw.wg.Done()
	quiet := time.NewTimer(configQuiet)
	quiet.Stop()
	defer quiet.Stop()
	for {
		select {
		case <-cw.done:
			return
		case ev, ok := <-cw.w.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == path {
				quiet.Reset(configQuiet)
			}
		case err, ok := <-cw.w.Errors:
			if !ok {
				return
			}
			log.Warn("config watch", "path", path, "err", err)
		case <-quiet.C:
			ctx, cancel := context.WithTimeout(context.Background(), reloadTimeout)
			if err := reload(ctx); err != nil {
				log.Warn("the config file changed but cannot be applied; the running servers stay", "err", err)
			}
			cancel()
		}
	}
}

// close stops the watch and waits for a reload in progress.
func (cw *configWatch) close() error {
	if cw == nil {
		return nil
	}
	var err error
	cw.once.Do(func() {
		close(cw.done)
		err = cw.w.Close()
		cw.wg.Wait()
	})
	return err
}

// reloadDocumentRoots applies the documents roots of cfg: folders added to
// the file may be indexed at once, folders taken out are refused. The
// section's other settings (the index folder, the embedder, excludes and
// the size cap) apply at the next start.
func (d *Daemon) reloadDocumentRoots(cfg *config.File) {
	if d.docs == nil {
		return
	}
	home, _ := os.UserHomeDir()
	roots := cfg.Documents.ResolvedRoots(home)
	if slices.Equal(roots, d.docs.Roots()) {
		return
	}
	d.docs.SetRoots(roots)
	d.log.Info("config changed: document roots applied", "roots", roots)
}

// reloadModels applies the models and orchestrator of cfg as the daemon
// starts with them: a part with a problem is left out, and says why. A
// file that cannot be read at all keeps the models in use.
func (d *Daemon) reloadModels(cfg *config.File) {
	models, err := LoadModelsServe(cfg, d.log)
	if err == nil {
		err = d.ApplyModels(models)
	}
	if err != nil {
		d.log.Warn("config changed: its models have problems; the models in use stay", "error", err)
	}
}
