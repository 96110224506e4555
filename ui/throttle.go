package ui

import (
	"sync"
	"time"
)

// throttleEvery is how often progress reaches the widgets at most.
const throttleEvery = 50 * time.Millisecond

// throttle passes the newest value to show on the UI goroutine at most once
// per throttleEvery, so a fast producer cannot flood the UI goroutine.
type throttle[T any] struct {
	bridge *bridge
	show   func(T)

	mu      sync.Mutex
	latest  T
	has     bool
	last    time.Time
	pending bool
}

func newThrottle[T any](b *bridge, show func(T)) *throttle[T] {
	return &throttle[T]{bridge: b, show: show}
}

// offer records v and posts it when enough time has passed; safe from any goroutine.
func (t *throttle[T]) offer(v T) {
	t.mu.Lock()
	t.latest, t.has = v, true
	due := time.Since(t.last) >= throttleEvery && !t.pending
	if due {
		t.pending = true
		t.last = time.Now()
	}
	t.mu.Unlock()
	if due {
		t.bridge.onUI(t.deliver)
	}
}

// flush posts the newest value if it was not shown yet.
func (t *throttle[T]) flush() {
	t.mu.Lock()
	has := t.has
	t.mu.Unlock()
	if has {
		t.bridge.onUI(t.deliver)
	}
}

// deliver runs on the UI goroutine.
func (t *throttle[T]) deliver() {
	t.mu.Lock()
	v, has := t.latest, t.has
	t.has, t.pending = false, false
	t.mu.Unlock()
	if has {
		t.show(v)
	}
}
