package events

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultKeep is how many recent events a bus keeps for Since.
const DefaultKeep = 1024

// DefaultBuffer is a subscription's buffer when its filter sets none.
const DefaultBuffer = 256

// Options tune a Bus. The zero value is usable.
type Options struct {
	// Keep is how many of the most recent events Since can return
	// (DefaultKeep when 0).
	Keep int
	// Now stamps events (time.Now when nil).
	Now func() time.Time
}

// Bus fans events out to subscriptions. Safe for concurrent use; a nil
// *Bus accepts Publish and does nothing, so optional wiring stays simple.
type Bus struct {
	mu      sync.Mutex
	opts    Options
	last    int64
	ring    []Event // the most recent events, oldest first
	subs    map[*Subscription]struct{}
	changed chan struct{} // closed and replaced on every publish
}

// New returns an empty bus.
func New(opts Options) *Bus {
	if opts.Keep <= 0 {
		opts.Keep = DefaultKeep
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Bus{opts: opts, subs: map[*Subscription]struct{}{}, changed: make(chan struct{})}
}

// Publish gives the event the next id and delivers it to every matching
// subscription with room for it; it never blocks. It returns the event.
func (b *Bus) Publish(t Type, subject string, data any) Event {
	if b == nil {
		return Event{}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.last++
	e := Event{ID: b.last, Time: b.opts.Now(), Type: t, Subject: subject, Data: data}
	if len(b.ring) == b.opts.Keep {
		copy(b.ring, b.ring[1:])
		b.ring = b.ring[:len(b.ring)-1]
	}
	b.ring = append(b.ring, e)
	for s := range b.subs {
		s.offer(e)
	}
	close(b.changed)
	b.changed = make(chan struct{})
	return e
}

// LastID is the id of the newest event, 0 before the first.
func (b *Bus) LastID() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last
}

// Since returns the kept events after id that match mask, oldest first.
// Events older than the bus keeps are gone: a reader that fell that far
// behind sees the first returned id jump past id+1.
func (b *Bus) Since(id int64, mask Type) []Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.since(id, mask)
}

func (b *Bus) since(id int64, mask Type) []Event {
	var out []Event
	for _, e := range b.ring {
		if e.ID > id && e.Type&mask != 0 {
			out = append(out, e)
		}
	}
	return out
}

// Wait returns the events after id that match mask, waiting until there is
// at least one or ctx ends (then it returns ctx's error).
func (b *Bus) Wait(ctx context.Context, id int64, mask Type) ([]Event, error) {
	for {
		b.mu.Lock()
		out, changed := b.since(id, mask), b.changed
		b.mu.Unlock()
		if len(out) > 0 {
			return out, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Filter chooses what a subscription receives.
type Filter struct {
	Mask Type // 0 means AllTypes
	// Subject, when set, admits only events about that one thing (a run
	// id, a server name).
	Subject string
	// Buffer is how many unread events the subscription holds before it
	// starts losing them (DefaultBuffer when 0).
	Buffer int
}

// Subscribe starts delivery of the events matching f that are published
// from now on. Cancel the subscription when done.
func (b *Bus) Subscribe(f Filter) *Subscription {
	if f.Mask == 0 {
		f.Mask = AllTypes
	}
	if f.Buffer <= 0 {
		f.Buffer = DefaultBuffer
	}
	s := &Subscription{bus: b, filter: f, ch: make(chan Event, f.Buffer)}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Subscription receives matching events in publication order.
type Subscription struct {
	bus     *Bus
	filter  Filter
	ch      chan Event
	dropped atomic.Int64
	once    sync.Once
}

// C delivers the events; it is closed by Cancel.
func (s *Subscription) C() <-chan Event { return s.ch }

// Dropped counts the events lost because the buffer was full.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Cancel stops delivery and closes C. Safe to call more than once.
func (s *Subscription) Cancel() {
	s.once.Do(func() {
		s.bus.mu.Lock()
		delete(s.bus.subs, s)
		s.bus.mu.Unlock()
		close(s.ch)
	})
}

// offer delivers e if it matches and there is room; called with the bus
// locked, so delivery order is publication order.
func (s *Subscription) offer(e Event) {
	if e.Type&s.filter.Mask == 0 || (s.filter.Subject != "" && e.Subject != s.filter.Subject) {
		return
	}
	select {
	case s.ch <- e:
	default:
		s.dropped.Add(1)
	}
}

// Follow calls fn with every event matching f, in order, on a goroutine of
// its own, until stop is called. stop delivers the events already
// published before it returns, so a caller that publishes and then stops
// has seen all of them. fn must not call stop.
func (b *Bus) Follow(f Filter, fn func(Event)) (stop func(), dropped func() int64) {
	sub := b.Subscribe(f)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for e := range sub.C() {
			fn(e)
		}
	}()
	return func() {
		sub.Cancel()
		wg.Wait()
	}, sub.Dropped
}
