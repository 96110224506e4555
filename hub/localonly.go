package hub

import (
	"context"
	"errors"
)

// HoldRemote makes "local only" hold for the whole hub: while hold is
// true every remote server (Locality remote) stays disconnected — running
// ones are stopped and their tools leave the catalog, and none connects,
// not even on Start, so not even initialize or tools/list is sent to it.
// HoldRemote(false) connects them again (once Start has run). A server
// turned off with SetEnabled stays off either way.
func (h *Hub) HoldRemote(ctx context.Context, hold bool) error {
	h.mu.Lock()
	if h.remoteHeld == hold {
		h.mu.Unlock()
		return nil
	}
	h.remoteHeld = hold
	var remote []string
	for _, name := range h.order {
		if m := h.servers[name]; m.spec.Locality == LocalityRemote && !m.disabled && m.spec.Invalid == "" {
			remote = append(remote, name)
		}
	}
	started := h.started
	h.mu.Unlock()
	var errs []error
	for _, name := range remote {
		switch {
		case hold:
			errs = append(errs, h.stopServer(ctx, name, false))
		case started:
			errs = append(errs, h.startServer(ctx, name))
		}
	}
	return errors.Join(errs...)
}

// heldLocked reports whether m must stay disconnected because local-only
// holds for the whole hub; h.mu is held.
func (h *Hub) heldLocked(m *managedServer) bool {
	return h.remoteHeld && m.spec.Locality == LocalityRemote
}
