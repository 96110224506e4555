package policies

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// fileWatch calls onChange once the watched file has been quiet for the
// debounce delay after a change. It watches the directory, not the file:
// an atomic save replaces the file by a rename, which a watch on the old
// file would not follow.
type fileWatch struct {
	w    *fsnotify.Watcher
	done chan struct{}
	wg   sync.WaitGroup
	once sync.Once
}

func watchFile(path string, debounce time.Duration, onChange func(), log *slog.Logger) (*fileWatch, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", path, err)
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("watch %s: %w", path, err)
	}
	fw := &fileWatch{w: w, done: make(chan struct{})}
	fw.wg.Add(1)
	go fw.loop(filepath.Clean(path), debounce, onChange, log)
	return fw, nil
}

func (fw *fileWatch) loop(path string, debounce time.Duration, onChange func(), log *slog.Logger) {
	defer fw.wg.Done()
	timer := time.NewTimer(debounce)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-fw.done:
			return
		case ev, ok := <-fw.w.Events:
			if !ok {
				return
			}
			if filepath.Clean(ev.Name) == path {
				timer.Reset(debounce)
			}
		case err, ok := <-fw.w.Errors:
			if !ok {
				return
			}
			log.Warn("preferences watch", "path", path, "err", err)
		case <-timer.C:
			onChange()
		}
	}
}

func (fw *fileWatch) close() error {
	var err error
	fw.once.Do(func() {
		close(fw.done)
		err = fw.w.Close()
		fw.wg.Wait()
	})
	return err
}
