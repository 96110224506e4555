package ui

import (
	"context"
	"sync"
)

// prefsSaver writes preferences off the UI goroutine. Changes that arrive
// while a save runs are coalesced: only the newest is written next.
type prefsSaver struct {
	backend PreferencesBackend
	bridge  *bridge
	done    func(PreferencesPreview, error) // on the UI goroutine

	mu      sync.Mutex
	pending *Preferences
	running bool
}

func newPrefsSaver(b PreferencesBackend, br *bridge, done func(PreferencesPreview, error)) *prefsSaver {
	return &prefsSaver{backend: b, bridge: br, done: done}
}

// busy reports whether a save is queued or being written.
func (s *prefsSaver) busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running || s.pending != nil
}

// save queues p and starts the writer when it is idle.
func (s *prefsSaver) save(p Preferences) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending = &p
	if !s.running {
		s.running = true
		go s.loop()
	}
}

func (s *prefsSaver) loop() {
	for {
		s.mu.Lock()
		p := s.pending
		s.pending = nil
		if p == nil {
			s.running = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		pv, err := s.write(*p)
		s.bridge.onUI(func() { s.done(pv, err) })
	}
}

func (s *prefsSaver) write(p Preferences) (PreferencesPreview, error) {
	ctx, cancel := s.bridge.callContext()
	defer cancel()
	if err := s.backend.SavePreferences(ctx, p); err != nil {
		return PreferencesPreview{}, err
	}
	return s.preview(ctx, p)
}

func (s *prefsSaver) preview(ctx context.Context, p Preferences) (PreferencesPreview, error) {
	return s.backend.Preview(ctx, p)
}
