package conductor

import (
	"sync"
	"sync/atomic"
)

// EventKind says what happened.
type EventKind string

// Event kinds.
const (
	EventRunStarted  EventKind = "run_started"
	EventStep        EventKind = "step"
	EventRunFinished EventKind = "run_finished"
)

// Event is one thing that happened in an episode. Step is set for
// EventStep; Run (a copy) for EventRunStarted and EventRunFinished.
type Event struct {
	Kind  EventKind
	RunID string
	Step  *Step
	Run   *Run
}

// Bus fans events out to buffered subscriptions. Publishing never blocks:
// a subscriber whose buffer is full loses the event and the loss is counted.
type Bus struct {
	mu     sync.RWMutex
	subs   map[int]*Subscription
	nextID int
}

// Subscription receives events on C until cancelled.
type Subscription struct {
	C       <-chan Event
	ch      chan Event
	dropped atomic.Int64
	cancel  func()
}

// Dropped counts events lost because the buffer was full.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Cancel stops delivery and closes C. Safe to call more than once.
func (s *Subscription) Cancel() { s.cancel() }

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: map[int]*Subscription{}} }

// Subscribe adds a subscription with a buffer of size events (at least 1).
func (b *Bus) Subscribe(size int) *Subscription {
	if size < 1 {
		size = 1
	}
	ch := make(chan Event, size)
	sub := &Subscription{C: ch, ch: ch}
	b.mu.Lock()
	id := b.nextID
	b.nextID++
	b.subs[id] = sub
	b.mu.Unlock()
	var once sync.Once
	sub.cancel = func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, id)
			b.mu.Unlock()
			close(ch)
		})
	}
	return sub
}

// Publish delivers e to every subscription with room for it.
func (b *Bus) Publish(e Event) {
	if b == nil {
		return
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, s := range b.subs {
		select {
		case s.ch <- e:
		default:
			s.dropped.Add(1)
		}
	}
}
