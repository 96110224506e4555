package hub

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/toolhub/toolhub/events"
)

// Changes says what an Apply did to the running set, each list sorted.
type Changes struct {
	Added     []string // new servers, started
	Removed   []string // servers no longer listed, stopped
	Restarted []string // servers whose spec changed, restarted with the new one
	Unchanged []string // left exactly as they were
}

// Empty reports whether the Apply changed nothing.
func (c Changes) Empty() bool {
	return len(c.Added)+len(c.Removed)+len(c.Restarted) == 0
}

// Apply makes specs the hub's set of servers while it runs: a server not
// running yet is started, one no longer listed is stopped (its process
// group killed) and dropped, one whose spec changed is stopped and started
// again with the new spec. A server whose spec is equal to the running one
// is left untouched: its connection, process and calls in flight go on.
// A server turned off with SetEnabled stays off when its spec changes.
// Before Start, Apply only replaces the specs Start will start.
func (h *Hub) Apply(ctx context.Context, specs []ServerSpec) (Changes, error) {
	want, err := specsByName(specs)
	if err != nil {
		return Changes{}, err
	}
	h.applyMu.Lock()
	defer h.applyMu.Unlock()
	ch, stops, err := h.diff(want)
	if err != nil {
		return Changes{}, err
	}
	var errs []error
	for _, name := range append(slices.Clone(ch.Removed), ch.Restarted...) {
		if err := h.awaitStop(ctx, name, stops[name]); err != nil {
			errs = append(errs, err)
		}
	}
	for _, name := range ch.Removed {
		h.publish(events.ServerChanged, name, ServerStatus{Name: name, State: StateStopped})
	}
	for _, name := range append(slices.Clone(ch.Added), ch.Restarted...) {
		h.launch(ctx, name, want[name])
	}
	if !ch.Empty() {
		h.signal()
	}
	return ch, errors.Join(errs...)
}

// specsByName indexes specs, refusing a nameless or repeated one.
func specsByName(specs []ServerSpec) (map[string]ServerSpec, error) {
	want := make(map[string]ServerSpec, len(specs))
	for _, s := range specs {
		if s.Name == "" {
			return nil, errors.New("apply servers: a server has no name")
		}
		if _, dup := want[s.Name]; dup {
			return nil, fmt.Errorf("apply servers: server %q listed twice", s.Name)
		}
		want[s.Name] = s
	}
	return want, nil
}

// stopping is what a server being stopped by Apply is waited on with.
type stopping struct {
	ds     *downstream
	cancel context.CancelFunc
	done   chan struct{}
}

// diff compares want with the running set under the lock. Removed servers
// leave the set at once; removed and changed ones have their supervisor
// detached, to be stopped by the caller outside the lock.
func (h *Hub) diff(want map[string]ServerSpec) (Changes, map[string]stopping, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return Changes{}, nil, errors.New("apply servers: the hub is closed")
	}
	var ch Changes
	stops := map[string]stopping{}
	for _, name := range h.order {
		m := h.servers[name]
		spec, keep := want[name]
		switch {
		case !keep:
			ch.Removed = append(ch.Removed, name)
			delete(h.servers, name)
		case specEqual(m.spec, spec):
			ch.Unchanged = append(ch.Unchanged, name)
			continue
		default:
			ch.Restarted = append(ch.Restarted, name)
		}
		stops[name] = stopping{ds: m.ds, cancel: m.cancel, done: m.done}
		m.ds, m.cancel, m.done = nil, nil, nil
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if _, ok := h.servers[name]; !ok {
			ch.Added = append(ch.Added, name)
			h.servers[name] = &managedServer{spec: want[name]}
		}
	}
	h.order = slices.Sorted(maps.Keys(want))
	return ch, stops, nil
}

// awaitStop stops a detached supervisor, waits for it and takes the
// server's tools out of the catalog.
func (h *Hub) awaitStop(ctx context.Context, name string, s stopping) error {
	if s.ds != nil {
		s.cancel()
		s.ds.Stop()
		select {
		case <-s.done:
		case <-ctx.Done():
			return fmt.Errorf("stop %s: %w", name, ctx.Err())
		}
	}
	h.catalog.RemoveServer(name)
	h.extras.remove(name)
	return nil
}

// launch puts spec in the set and starts it when the hub has started, the
// entry is usable, it is not held local-only and not turned off. The
// server lives until the hub closes, not until ctx ends.
func (h *Hub) launch(ctx context.Context, name string, spec ServerSpec) {
	h.mu.Lock()
	m, ok := h.servers[name]
	if h.closed || !ok {
		h.mu.Unlock()
		return
	}
	if m.ds != nil {
		// started again with the old spec meanwhile (Restart, SetEnabled)
		old := stopping{ds: m.ds, cancel: m.cancel, done: m.done}
		m.ds, m.cancel, m.done = nil, nil, nil
		h.mu.Unlock()
		_ = h.awaitStop(context.WithoutCancel(ctx), name, old)
		h.launch(ctx, name, spec)
		return
	}
	m.spec = spec
	if h.started && !m.disabled && spec.Invalid == "" && !h.heldLocked(m) {
		h.startLocked(context.WithoutCancel(ctx), m)
	}
	h.mu.Unlock()
	h.publishStatus(name)
}

// specEqual reports whether two specs would run the same server.
func specEqual(a, b ServerSpec) bool {
	return a.Name == b.Name && a.Transport == b.Transport &&
		a.Command == b.Command && slices.Equal(a.Args, b.Args) && maps.Equal(a.Env, b.Env) && a.Cwd == b.Cwd &&
		a.URL == b.URL && maps.Equal(a.Headers, b.Headers) && oauthEqual(a.OAuth, b.OAuth) &&
		a.InProcess == b.InProcess && a.Unprefixed == b.Unprefixed && a.Invalid == b.Invalid &&
		a.Locality == b.Locality && slices.Equal(a.DisabledTools, b.DisabledTools) &&
		a.Timeout == b.Timeout && a.CostPerCall == b.CostPerCall && a.CostPerSecond == b.CostPerSecond && a.ClientRoots == b.ClientRoots && a.NoClientRoots == b.NoClientRoots && a.Protocol == b.Protocol &&
		a.MaxClientSessions == b.MaxClientSessions
}

// oauthEqual compares two sign-in setups by value.
func oauthEqual(a, b *OAuthSpec) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.ClientID == b.ClientID && a.ClientSecret == b.ClientSecret &&
		slices.Equal(a.Scopes, b.Scopes) && a.AuthServerMetadataURL == b.AuthServerMetadataURL
}
