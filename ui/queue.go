package ui

import (
	"sync"
	"time"
)

// Queue is a UI goroutine that a test driver runs by hand: Post queues a
// function from any goroutine and Until runs the queued functions on the
// calling goroutine. Give Options.Post a Queue's Post to drive the desktop
// from Fyne's test driver, where fyne.Do would run callbacks on the
// goroutine that posted them.
type Queue struct {
	mu      sync.Mutex
	pending []func()
	wake    chan struct{}
}

// NewQueue returns an empty queue.
func NewQueue() *Queue { return &Queue{wake: make(chan struct{}, 1)} }

// Post queues fn; it never blocks.
func (q *Queue) Post(fn func()) {
	q.mu.Lock()
	q.pending = append(q.pending, fn)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Drain runs every queued function, including those queued meanwhile.
func (q *Queue) Drain() {
	for {
		q.mu.Lock()
		batch := q.pending
		q.pending = nil
		q.mu.Unlock()
		if len(batch) == 0 {
			return
		}
		for _, fn := range batch {
			fn()
		}
	}
}

// Until runs queued functions until cond holds (checked after each batch)
// or timeout passes, and reports whether cond held.
func (q *Queue) Until(timeout time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		q.Drain()
		if cond() {
			return true
		}
		select {
		case <-q.wake:
		case <-deadline.C:
			q.Drain()
			return cond()
		}
	}
}
