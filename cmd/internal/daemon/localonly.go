package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/toolhub/toolhub/policies"
)

// holdTimeout bounds one change of the remote servers' hold: stopping or
// connecting every remote server.
const holdTimeout = 30 * time.Second

// remoteHolds applies the preferences' privacy to the hub, one change at a
// time, newest last, off the goroutine that changed the preferences.
type remoteHolds struct {
	apply  sync.Mutex // held while a change is applied
	mu     sync.Mutex
	want   bool
	closed bool // no change is taken any more
	wg     sync.WaitGroup
}

// Wait returns once every change asked for so far is applied.
func (r *remoteHolds) Wait() { r.wg.Wait() }

// close refuses later changes and waits for those already asked for.
func (r *remoteHolds) close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.wg.Wait()
}

// holdRemote keeps remote servers disconnected while p says local-only
// (hub.HoldRemote), and connects them again once it no longer does.
func (d *Daemon) holdRemote(p policies.Preferences) {
	r := &d.holds
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.want = p.Privacy == policies.PrivacyLocalOnly
	r.wg.Add(1) // under mu, so never after close has begun to wait
	r.mu.Unlock()
	go func() {
		defer r.wg.Done()
		r.apply.Lock()
		defer r.apply.Unlock()
		r.mu.Lock()
		hold := r.want
		r.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), holdTimeout)
		defer cancel()
		if err := d.hub.HoldRemote(ctx, hold); err != nil {
			d.log.Warn("local-only: remote servers", "hold", hold, "err", err)
		}
	}()
}
