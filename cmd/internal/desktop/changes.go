package desktop

import (
	"context"

	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/ui"
)

// changeTypes are the bus events the window follows, and what each means
// to it.
var changeTypes = map[events.Type]ui.Change{
	events.ServerChanged:      ui.ChangeServers,
	events.CatalogChanged:     ui.ChangeServers,
	events.PreferencesChanged: ui.ChangePreferences,
	events.RunStored:          ui.ChangeRuns,
}

// changesBuffer holds a burst of changes (every server starting at once)
// without losing one.
const changesBuffer = 1024

// Changes implements ui.ChangesBackend from the daemon's event bus: the
// window is told, not polling. The model endpoints, which are outside
// toolhub, are asked how they are while the window follows, and a change
// of their health is told the same way.
func (b *Backend) Changes(ctx context.Context, fn func(ui.Change)) {
	var mask events.Type
	for t := range changeTypes {
		mask |= t
	}
	stop, _ := b.opts.Daemon.Bus().Follow(events.Filter{Mask: mask, Buffer: changesBuffer},
		func(e events.Event) { fn(changeTypes[e.Type]) })
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.watch.run(ctx, b.opts.ModelProbeEvery, b.modelEndpoints, func() { fn(ui.ChangeServers) })
	}()
	<-ctx.Done()
	stop()
	<-done
}
