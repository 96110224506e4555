package hub

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolhub/toolhub/internal/proc"
)

// Run supervises the server until ctx is done or Stop is called: connect,
// serve until the connection breaks, wait out a jittered backoff, connect
// again; after too many failures in the restart window the server is failed
// and Run waits for the end. Run returns after the last connection is closed
// and its process group killed and reaped. A second Run returns at once.
func (d *downstream) Run(ctx context.Context) {
	if !d.claimRun() {
		return
	}
	ctx, cancel := d.stopContext(ctx)
	defer cancel()
	defer d.setState(StateStopped, "")
	if d.clients != nil {
		// The clients' own sessions end with the server, and before it
		// reports stopped.
		d.clients.open(ctx)
		defer d.clients.closeAll()
	}

	for ctx.Err() == nil {
		conn, err := d.connectAndServe(ctx)
		if ctx.Err() != nil {
			conn.close(d.opts.StopGrace)
			return
		}
		if d.wantsSignIn(err) {
			conn.close(d.opts.StopGrace)
			if !d.awaitSignIn(ctx) {
				return
			}
			continue
		}
		if d.remote() {
			delay := d.recordRetry(err)
			conn.close(d.opts.StopGrace)
			if !d.opts.Sleep(ctx, delay) {
				return
			}
			continue
		}
		gaveUp := d.recordFailure(err)
		conn.close(d.opts.StopGrace)
		if gaveUp {
			<-ctx.Done()
			return
		}
		if !d.opts.Sleep(ctx, d.failures.Delay()) {
			return
		}
	}
}

// remote reports whether the server is reached over the network (sse or
// http): such a server is tried again without end, since it may come up
// at any time; a stdio child that keeps crashing is given up on.
func (d *downstream) remote() bool {
	return d.spec.Transport == TransportHTTP || d.spec.Transport == TransportSSE
}

// recordRetry notes a failed try of a remote server, moves to retrying and
// returns how long to wait before the next try.
func (d *downstream) recordRetry(err error) time.Duration {
	reason := failureReason(err)
	delay := d.retry.Failed()
	d.log.Warn("downstream unreachable; retrying", "tries", d.retry.Tries(), "in", delay, "reason", reason)
	d.setRetrying(reason, time.Now().Add(delay))
	return delay
}

// claimRun reports whether this is the first Run.
func (d *downstream) claimRun() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.running {
		return false
	}
	d.running = true
	return true
}

// stopContext is ctx, also cancelled by Stop.
func (d *downstream) stopContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-d.stopped:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// connectAndServe connects and, once ready, serves until the connection
// breaks or ctx ends. It returns the connection (possibly half-open, for the
// caller to close) already detached from calls, and why it ended.
func (d *downstream) connectAndServe(ctx context.Context) (*connection, error) {
	d.setState(StateStarting, "")
	conn, tools, err := d.connect(ctx)
	if err != nil {
		return conn, err
	}
	d.attach(conn)
	d.setTools(conn, tools)
	if d.owner == nil {
		d.startExtras(ctx, conn) // the catalog's resources and prompts come from the shared session
	}
	d.retry.Reset()
	d.setState(StateReady, "")
	d.log.Info("downstream ready", "tools", len(tools))
	conn.watch(func() { d.followToolChanges(ctx, conn) })
	conn.watch(func() { d.watchSignOut(conn) })

	select {
	case <-ctx.Done():
		d.detach(conn)
		return conn, ctx.Err()
	case <-conn.broken:
		d.detach(conn)
		return conn, conn.brokenReason()
	}
}

func (d *downstream) attach(conn *connection) {
	d.mu.Lock()
	d.conn = conn
	d.mu.Unlock()
}

func (d *downstream) detach(conn *connection) {
	d.mu.Lock()
	if d.conn == conn {
		d.conn = nil
	}
	d.mu.Unlock()
}

// recordFailure counts a failure and moves to restarting, or to failed when
// the restart window is exhausted or the command is on no PATH entry; it
// reports whether the server gave up.
func (d *downstream) recordFailure(err error) bool {
	reason := failureReason(err)
	if errors.Is(err, proc.ErrCommandNotFound) {
		// Starting it again would find the same PATH: the server fails at
		// once, until the config changes or it is restarted.
		d.log.Error("downstream failed: command not found", "command", d.spec.Command, "reason", reason)
		d.setState(StateFailed, reason+missingCommandHint(err))
		return true
	}
	recent := d.failures.Record(time.Now())
	if d.failures.Exhausted() {
		policy := d.failures.Policy
		msg := fmt.Sprintf("gave up after %d failures within %s; last: %s", recent, policy.Window, reason)
		d.log.Error("downstream failed", "failures", recent, "reason", reason)
		d.setState(StateFailed, msg)
		return true
	}
	d.log.Warn("downstream failed; restarting", "failures", recent, "reason", reason)
	d.setState(StateRestarting, reason)
	return false
}

// missingCommandHint says how to mend a command that was not found.
func missingCommandHint(err error) string {
	if missing, isPath := errors.AsType[*proc.MissingProgramError](err); isPath {
		if !missing.NoFile() {
			return "; give the path of the program itself in the config"
		}
		return "; install it there, or correct the path in the config"
	}
	return "; install it, or give its full path or a PATH in the server's env"
}

// failureReason is why a connection ended, as the status and the log give
// it: err's text without the words mcp-go's HTTP transport says twice
// ("failed to send request: failed to send request: Post ..."), or
// "connection ended" when there is no error.
func failureReason(err error) string {
	if err == nil {
		return "connection ended"
	}
	parts := strings.Split(err.Error(), ": ")
	kept := parts[:1]
	for _, p := range parts[1:] {
		if p != kept[len(kept)-1] {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ": ")
}
