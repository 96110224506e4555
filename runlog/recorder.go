package runlog

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
)

// Opening is retried for a while: another toolhub process (the desktop, a
// second hub, `toolhub runs`) may hold the log for a moment.
const (
	openRetries    = 100
	openRetryPause = 50 * time.Millisecond
)

// OpenWithRetry opens the log in dir, retrying while another process holds
// it.
func OpenWithRetry(dir string) (*RunLog, error) {
	var err error
	for i := range openRetries {
		var log *RunLog
		if log, err = OpenRunLog(dir); err == nil {
			return log, nil
		}
		if i < openRetries-1 {
			time.Sleep(openRetryPause)
		}
	}
	return nil, err
}

// RecorderOptions tune a Recorder. The zero value is usable.
type RecorderOptions struct {
	// IdleClose closes the log this long after the last use (default
	// 500 ms): a burst of runs is written with one open, and other toolhub
	// processes (`toolhub runs`, a second hub) get in between bursts.
	IdleClose time.Duration
	Logger    *slog.Logger
}

// Recorder stores every run finished on the bus: the one writer of the run
// log in a process. It opens the log at the first run and keeps it open
// while runs keep coming, and publishes RunStored once a run is written.
type Recorder struct {
	dir  string
	bus  *events.Bus
	sub  *events.Subscription
	opts RecorderOptions
	done chan struct{}
	used chan struct{} // View opened or used the log: restart the idle timer

	mu  sync.Mutex
	log *RunLog // nil while closed
	err error   // the first failure to store, for Close
}

// NewRecorder starts storing the runs finished on bus in dir; Close stops
// it after storing every run already finished.
func NewRecorder(dir string, bus *events.Bus, opts RecorderOptions) *Recorder {
	if opts.IdleClose <= 0 {
		opts.IdleClose = 500 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	r := &Recorder{dir: dir, bus: bus, opts: opts, done: make(chan struct{}), used: make(chan struct{}, 1),
		sub: bus.Subscribe(events.Filter{Mask: events.RunFinished, Buffer: 1024})}
	go r.loop()
	return r
}

func (r *Recorder) loop() {
	defer close(r.done)
	idle := time.NewTimer(r.opts.IdleClose)
	idle.Stop()
	defer idle.Stop()
	for {
		select {
		case e, ok := <-r.sub.C():
			if !ok {
				r.closeLog()
				return
			}
			if run, ok := e.Data.(*conductor.Run); ok {
				r.store(run)
				idle.Reset(r.opts.IdleClose)
			}
		case <-r.used:
			idle.Reset(r.opts.IdleClose)
		case <-idle.C:
			r.closeLog()
		}
	}
}

// store writes run, opening the log when it is closed.
func (r *Recorder) store(run *conductor.Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.log == nil {
		log, err := OpenWithRetry(r.dir)
		if err != nil {
			r.fail(fmt.Errorf("store run %s: %w", run.ID, err))
			return
		}
		r.log = log
	}
	if err := r.log.Put(run); err != nil {
		r.fail(fmt.Errorf("store run %s: %w", run.ID, err))
		return
	}
	r.bus.Publish(events.RunStored, run.ID, run.ID)
}

// View calls fn with the open log (opening it when closed): how the rest of
// the process reads runs while the recorder owns the log.
func (r *Recorder) View(fn func(*RunLog) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.log == nil {
		log, err := OpenWithRetry(r.dir)
		if err != nil {
			return err
		}
		r.log = log
	}
	select {
	case r.used <- struct{}{}:
	default: // a restart is already pending
	}
	return fn(r.log)
}

func (r *Recorder) fail(err error) {
	r.opts.Logger.Warn("the run was not stored", "err", err)
	if r.err == nil {
		r.err = err
	}
}

func (r *Recorder) closeLog() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.log != nil {
		if err := r.log.Close(); err != nil && r.err == nil {
			r.err = err
		}
		r.log = nil
	}
}

// Close stores the runs already finished, closes the log and reports the
// first failure to store a run, if any.
func (r *Recorder) Close() error {
	r.sub.Cancel()
	<-r.done
	r.mu.Lock()
	defer r.mu.Unlock()
	if d := r.sub.Dropped(); d > 0 {
		return errors.Join(r.err, fmt.Errorf("%d finished runs were not stored: too many at once", d))
	}
	return r.err
}
