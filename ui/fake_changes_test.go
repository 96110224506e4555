package ui

import "context"

// Changes implements ChangesBackend: the test pushes with push.
func (f *fakeBackend) Changes(ctx context.Context, fn func(Change)) {
	f.mu.Lock()
	if f.changes == nil {
		f.changes = make(chan Change, 16)
	}
	ch := f.changes
	f.mu.Unlock()
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-ch:
			fn(c)
		}
	}
}

// push reports c to the window as the daemon would.
func (f *fakeBackend) push(c Change) {
	f.mu.Lock()
	if f.changes == nil {
		f.changes = make(chan Change, 16)
	}
	ch := f.changes
	f.mu.Unlock()
	ch <- c
}
