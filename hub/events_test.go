package hub

import (
	"context"
	"log/slog"
	"testing"

	"github.com/toolhub/toolhub/events"
)

// waitServerState waits on bus for a ServerChanged event about name in
// state want, published after id, and returns its id.
func waitServerState(ctx context.Context, t *testing.T, bus *events.Bus, id int64, name string, want ServerState) int64 {
	t.Helper()
	for {
		evs, err := bus.Wait(ctx, id, events.ServerChanged)
		if err != nil {
			t.Fatalf("no %s event for %s: %v (last seen %d)", want, name, err, id)
		}
		for _, e := range evs {
			id = e.ID
			st, ok := e.Data.(ServerStatus)
			if !ok {
				t.Fatalf("server event data is %T", e.Data)
			}
			if e.Subject == name && st.Name == name && st.State == want {
				return id
			}
		}
	}
}

// Every state a server goes through, and every new catalog, is announced
// on the bus, so readers need not poll Servers or Snapshot.
func TestStateAndCatalogChangesAreAnnounced(t *testing.T) {
	spec, _ := faultySpec(t, "flip", "ok")
	bus := events.New(events.Options{})
	h, err := New([]ServerSpec{spec}, Options{Logger: slog.New(slog.DiscardHandler), CallTimeout: waitLimit,
		ConnectTimeout: waitLimit, Events: bus})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	h.Start(ctx)

	id := waitServerState(ctx, t, bus, 0, "flip", StateReady)
	if len(bus.Since(0, events.CatalogChanged)) == 0 {
		t.Fatal("the server's tools joined the catalog without a catalog event")
	}
	if _, ok := h.Snapshot().Lookup("flip__echo"); !ok {
		t.Fatal("ready announced before the tools were in the catalog")
	}
	catalogs := len(bus.Since(0, events.CatalogChanged))
	if err := h.SetEnabled(ctx, "flip", false); err != nil {
		t.Fatal(err)
	}
	id = waitServerState(ctx, t, bus, id, "flip", StateDisabled)
	if len(bus.Since(0, events.CatalogChanged)) <= catalogs {
		t.Fatal("the disabled server's tools left the catalog without a catalog event")
	}
	if err := h.SetEnabled(ctx, "flip", true); err != nil {
		t.Fatal(err)
	}
	waitServerState(ctx, t, bus, id, "flip", StateReady)
}
