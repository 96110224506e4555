package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

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
