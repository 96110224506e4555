package desktop

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/runlog"
)

// runLogRetries is how often opening the run log is retried while another
// toolhub process (the conductor of `toolhub serve`) holds it for a write.
const (
	runLogRetries    = 20
	runLogRetryPause = 50 * time.Millisecond
)

// runLog opens the Badger run log for each use only, as the daemon's own
// run store does, so that both can write and `toolhub runs` can read.
type runLog struct {
	mu     sync.Mutex
	dir    string
	closed bool
}

var (
	errNoRunLog     = errors.New("no run log directory is configured")
	errRunLogClosed = errors.New("the desktop is shutting down")
)

// close waits for the use in progress and refuses later ones.
func (l *runLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
}

// with opens the log, calls fn and closes it again.
func (l *runLog) with(fn func(*runlog.RunLog) error) error {
	if l.dir == "" {
		return errNoRunLog
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errRunLogClosed
	}
	var log *runlog.RunLog
	var err error
	for range runLogRetries {
		if log, err = runlog.OpenRunLog(l.dir); err == nil {
			break
		}
		time.Sleep(runLogRetryPause)
	}
	if err != nil {
		return err
	}
	err = fn(log)
	return errors.Join(err, log.Close())
}

func (l *runLog) get(id string) (*conductor.Run, error) {
	var run *conductor.Run
	err := l.with(func(log *runlog.RunLog) (err error) {
		run, err = log.Get(id)
		return err
	})
	return run, err
}

// list returns up to limit runs whose task contains query (any case), newest first.
func (l *runLog) list(query string, limit int) ([]*conductor.Run, error) {
	if l.dir == "" {
		return nil, nil
	}
	var all []*conductor.Run
	if err := l.with(func(log *runlog.RunLog) (err error) {
		all, err = log.List(0)
		return err
	}); err != nil {
		return nil, fmt.Errorf("read run history: %w", err)
	}
	q := strings.ToLower(query)
	var out []*conductor.Run
	for _, r := range all {
		if strings.Contains(strings.ToLower(r.Task), q) && (limit <= 0 || len(out) < limit) {
			out = append(out, r)
		}
	}
	return out, nil
}
