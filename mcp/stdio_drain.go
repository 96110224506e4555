package mcp

import (
	"context"
	"errors"
	"time"
)

// stdioDrainGrace is how long requests still running when the client closes
// toolhub's stdin may go on to be answered. A client that writes its
// requests and closes its end (`printf … | toolhub serve`, a script) still
// reads the answers; one that closes stdin to stop toolhub gets it stopped
// within this time, or at once by a signal. It covers a list waiting for
// servers still starting (DefaultReadyTimeout).
const stdioDrainGrace = DefaultReadyTimeout + 10*time.Second

// errInputClosed is what a request toolhub made of the client gets once
// the client has closed its end: no answer can come.
var errInputClosed = errors.New("the client closed its input: no answer can come")

// track runs f as a request in flight, which drain waits for.
func (c *stdioConn) track(f func()) func() {
	c.inflight.Add(1)
	return func() {
		defer c.inflight.Done()
		f()
	}
}

// drain waits for the requests in flight once the client's input has
// ended, at most grace, or until ctx ends. Requests toolhub made of the
// client fail at once (the session's endInput).
func (c *stdioConn) drain(ctx context.Context, grace time.Duration) {
	c.session.endInput()
	done := make(chan struct{})
	go func() {
		c.inflight.Wait()
		close(done)
	}()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		c.s.log.Warn("stdin closed: requests still running were cancelled", "grace", grace)
	case <-ctx.Done():
	}
}
