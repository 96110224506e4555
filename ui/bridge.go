package ui

import (
	"context"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// bridge is the only way from backend work to widgets. Backend calls run on
// their own goroutines, never on the UI goroutine; their results come back
// through post, which is fyne.Do in the app. No other file calls fyne.Do.
type bridge struct {
	post    func(func())
	timeout time.Duration
	done    chan struct{} // closed by close

	mu      sync.Mutex
	closed  bool
	cancels map[int]context.CancelFunc // of the backend calls still running
	nextID  int
}

func newBridge(post func(func()), timeout time.Duration) *bridge {
	if post == nil {
		post = fyne.Do
	}
	if timeout <= 0 {
		timeout = defaultCallTimeout
	}
	return &bridge{post: post, timeout: timeout, done: make(chan struct{}), cancels: map[int]context.CancelFunc{}}
}

// onUI runs fn on the UI goroutine.
func (b *bridge) onUI(fn func()) { b.post(fn) }

// close cancels every backend call still running and stops the tickers.
func (b *bridge) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	close(b.done)
	for _, cancel := range b.cancels {
		cancel()
	}
}

// track makes close cancel ctx; the returned function releases it.
func (b *bridge) track(ctx context.Context, cancel context.CancelFunc) (context.Context, context.CancelFunc) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		cancel()
		return ctx, cancel
	}
	id := b.nextID
	b.nextID++
	b.cancels[id] = cancel
	return ctx, func() {
		cancel()
		b.mu.Lock()
		delete(b.cancels, id)
		b.mu.Unlock()
	}
}

// callContext bounds one backend call.
func (b *bridge) callContext() (context.Context, context.CancelFunc) {
	return b.track(context.WithTimeout(context.Background(), b.timeout))
}

// cancellable is a context for long work the user may cancel (runs, ingests).
func (b *bridge) cancellable() (context.Context, context.CancelFunc) {
	return b.track(context.WithCancel(context.Background()))
}

// fetch runs work on its own goroutine with a timeout, then apply on the UI
// goroutine with the result.
func fetch[T any](b *bridge, work func(context.Context) (T, error), apply func(T, error)) {
	go func() {
		ctx, cancel := b.callContext()
		defer cancel()
		v, err := work(ctx)
		b.onUI(func() { apply(v, err) })
	}()
}

// act is fetch for work that returns only an error.
func act(b *bridge, work func(context.Context) error, apply func(error)) {
	fetch(b, func(ctx context.Context) (struct{}, error) { return struct{}{}, work(ctx) },
		func(_ struct{}, err error) { apply(err) })
}

// every calls tick on its own goroutine every d until the bridge closes.
func (b *bridge) every(d time.Duration, tick func()) {
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-b.done:
				return
			case <-t.C:
				tick()
			}
		}
	}()
}

// follow runs watch on its own goroutine until the bridge closes, passing
// it fn for every change it reports.
func (b *bridge) follow(watch func(context.Context, func(Change)), fn func(Change)) {
	ctx, cancel := b.cancellable()
	go func() {
		defer cancel()
		watch(ctx, fn)
	}()
}
