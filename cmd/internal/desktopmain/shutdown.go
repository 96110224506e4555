package desktopmain

import (
	"log/slog"
	"sync"
	"time"
)

// uiExitGrace is how long the window toolkit may take to end its run loop
// once asked to quit. Fyne 2.7.1 can hang there for good: the stopped hook
// it queues while draining its main-thread queue can land in the queue
// after the drain, and the wait for that hook never ends. The process then
// ignored SIGTERM (the signal is caught) and kept the daemon running.
const uiExitGrace = 10 * time.Second

// closers are the desktop's shutdown steps, run once, last added first:
// when the window's run loop returns, or by the watchdog when it does not.
type closers struct {
	mu   sync.Mutex
	fns  []func()
	done bool
}

// add registers fn to run at shutdown.
func (c *closers) add(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fns = append(c.fns, fn)
}

// close runs the steps, last added first; a second call waits for the
// first to finish and does nothing.
func (c *closers) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return
	}
	c.done = true
	for i := len(c.fns) - 1; i >= 0; i-- {
		c.fns[i]()
	}
}

// finishIfStuck waits until the app is asked to quit (quitting) or the
// process to stop (stop: a signal, whose quit reaches the window through
// the toolkit's queue and may be lost in the same race), and then for its
// run loop to end (uiDone). When timeout fires first, the loop hangs: it
// logs so and calls finish, which shuts down and exits. It returns when
// the loop ended or finish returned.
func finishIfStuck(stop, quitting, uiDone <-chan struct{}, timeout func() <-chan time.Time, finish func(), log *slog.Logger) {
	select {
	case <-uiDone:
		return
	case <-stop:
	case <-quitting:
	}
	select {
	case <-uiDone:
	case <-timeout():
		log.Warn("the window toolkit did not end its run loop after quitting; shutting down without it")
		finish()
	}
}
