package hub

import (
	"context"
	"errors"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// startExtras lists the resources, templates and prompts of a freshly
// ready connection and follows their list_changed notifications until the
// connection closes.
func (d *downstream) startExtras(ctx context.Context, conn *connection) {
	caps := conn.client.GetServerCapabilities()
	if caps.Resources == nil && caps.Prompts == nil {
		d.reportExtras(conn, serverExtras{})
		return
	}
	changed := make(chan struct{}, 1)
	conn.client.OnNotification(func(n mcpgo.JSONRPCNotification) {
		switch n.Method {
		case mcpgo.MethodNotificationResourcesListChanged, mcpgo.MethodNotificationPromptsListChanged:
			select {
			case changed <- struct{}{}:
			default: // a re-list is already pending
			}
		}
	})
	d.reloadExtras(ctx, conn, caps)
	conn.watch(func() { d.followExtraChanges(ctx, conn, caps, changed) })
}

// followExtraChanges re-lists after each burst of list_changed
// notifications, once they have been quiet for ListChangedQuiet.
func (d *downstream) followExtraChanges(ctx context.Context, conn *connection, caps mcpgo.ServerCapabilities, changed <-chan struct{}) {
	for {
		select {
		case <-conn.done:
			return
		case <-ctx.Done():
			return
		case <-changed:
		}
		if !awaitQuietOn(ctx, conn, changed, d.opts.ListChangedQuiet) {
			return
		}
		d.reloadExtras(ctx, conn, caps)
	}
}

// awaitQuietOn absorbs further signals on changed until none arrives for
// quiet (or listChangedMaxWait has passed). It reports false when the
// connection or ctx ended.
func awaitQuietOn(ctx context.Context, conn *connection, changed <-chan struct{}, quiet time.Duration) bool {
	deadline := time.NewTimer(listChangedMaxWait)
	defer deadline.Stop()
	timer := time.NewTimer(quiet)
	defer timer.Stop()
	for {
		select {
		case <-conn.done:
			return false
		case <-ctx.Done():
			return false
		case <-changed:
			timer.Reset(quiet)
		case <-timer.C:
			return true
		case <-deadline.C:
			return true
		}
	}
}

// reloadExtras lists everything again within CallTimeout and reports it; a
// failure keeps the previous lists.
func (d *downstream) reloadExtras(ctx context.Context, conn *connection, caps mcpgo.ServerCapabilities) {
	ctx, cancel := context.WithTimeout(ctx, d.opts.CallTimeout)
	defer cancel()
	go func() {
		select {
		case <-conn.done: // an in-process server may not watch ctx
			cancel()
		case <-ctx.Done():
		}
	}()
	extras, err := listExtras(ctx, conn, caps)
	if err != nil && errors.Is(ctx.Err(), context.Canceled) {
		// The hub is stopping or the connection has ended: nothing failed.
		d.log.Debug("listing resources and prompts stopped", "err", err)
		return
	}
	if err != nil {
		d.log.Warn("listing resources and prompts failed", "err", err)
		return
	}
	d.reportExtras(conn, extras)
}

// reportExtras hands fresh lists to OnExtras unless conn is no longer the
// current connection.
func (d *downstream) reportExtras(conn *connection, extras serverExtras) {
	d.mu.Lock()
	current := d.conn == conn
	d.mu.Unlock()
	if current && d.opts.OnExtras != nil {
		d.opts.OnExtras(d.spec.Name, extras)
	}
}
