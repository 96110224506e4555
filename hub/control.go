package hub

import (
	"context"
	"fmt"

	"github.com/toolhub/toolhub/events"
)

// UnknownServerError reports a server name the hub does not run.
type UnknownServerError struct{ Name string }

func (e *UnknownServerError) Error() string { return fmt.Sprintf("no server named %q", e.Name) }

// Restart stops the named server (killing its process group) and connects
// it again with a fresh failure count: the way out of a server that gave up.
// A disabled server is enabled again.
func (h *Hub) Restart(ctx context.Context, name string) error {
	if err := h.stopServer(ctx, name, false); err != nil {
		return err
	}
	return h.startServer(ctx, name)
}

// SetEnabled turns the named server off (its tools leave the catalog and
// its process group is killed) or on again, while the hub runs.
func (h *Hub) SetEnabled(ctx context.Context, name string, on bool) error {
	if on {
		return h.startServer(ctx, name)
	}
	return h.stopServer(ctx, name, true)
}

// stopServer stops a server and waits until its supervisor has returned.
func (h *Hub) stopServer(ctx context.Context, name string, disable bool) error {
	h.mu.Lock()
	m, ok := h.servers[name]
	if !ok {
		h.mu.Unlock()
		return &UnknownServerError{Name: name}
	}
	if h.closed {
		h.mu.Unlock()
		return fmt.Errorf("stop %s: the hub is closed", name)
	}
	m.disabled = disable
	ds, cancel, done := m.ds, m.cancel, m.done
	m.ds, m.cancel, m.done = nil, nil, nil
	h.mu.Unlock()
	if ds == nil {
		return nil
	}
	// Its tools leave the catalog at once: from here on its state reads
	// stopped (or held local-only), and a stopped server offers nothing.
	// They are removed again below, after it has stopped, in case a
	// connection in progress added them meanwhile.
	h.catalog.RemoveServer(name)
	cancel()
	ds.Stop()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("stop %s: %w", name, ctx.Err())
	}
	h.catalog.RemoveServer(name)
	h.extras.remove(name)
	h.signal()
	h.publishStatus(name)
	return nil
}

// startServer starts a stopped or disabled server; a running one is left
// alone. The server lives until the hub closes, not until ctx ends.
func (h *Hub) startServer(ctx context.Context, name string) error {
	h.mu.Lock()
	m, ok := h.servers[name]
	switch {
	case !ok:
		h.mu.Unlock()
		return &UnknownServerError{Name: name}
	case h.closed:
		h.mu.Unlock()
		return fmt.Errorf("start %s: the hub is closed", name)
	case m.ds != nil:
		h.mu.Unlock()
		return nil
	case m.spec.Invalid != "":
		h.mu.Unlock()
		return fmt.Errorf("start %s: its config entry cannot be used: %s", name, m.spec.Invalid)
	}
	m.disabled = false
	if !h.heldLocked(m) {
		h.startLocked(context.WithoutCancel(ctx), m)
	}
	h.mu.Unlock()
	h.signal()
	h.publishStatus(name)
	return nil
}

// publishStatus announces name's current status after a stop or start.
func (h *Hub) publishStatus(name string) {
	for _, st := range h.Servers() {
		if st.Name == name {
			h.publish(events.ServerChanged, name, st)
		}
	}
}
