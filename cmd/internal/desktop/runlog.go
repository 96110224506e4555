package desktop

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/runlog"
)

// runLog reads the run history through the daemon's recorder, the one
// owner of the run log in this process.
type runLog struct {
	mu     sync.Mutex
	rec    *runlog.Recorder // nil without a run log
	closed bool
}

var (
	errNoRunLog     = errors.New("no run log directory is configured")
	errRunLogClosed = errors.New("the desktop is shutting down")
)

// close waits for the read in progress and refuses later ones.
func (l *runLog) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
}

// with calls fn with the open log.
func (l *runLog) with(fn func(*runlog.RunLog) error) error {
	if l.rec == nil {
		return errNoRunLog
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errRunLogClosed
	}
	return l.rec.View(fn)
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
	if l.rec == nil {
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
