package hub

import (
	"errors"
	"fmt"
	"time"

	"github.com/toolhub/toolhub/internal/mcpwire"
)

// openStdio spawns the child in its own process group and wires its stdout
// through the framer into the hub's stdio transport.
func (d *downstream) openStdio(conn *connection) error {
	child, err := startChild(d.spec, d.stderr)
	if err != nil {
		return err
	}
	d.log.Info("downstream process started", "command", d.spec.Command, "args", len(d.spec.Args), "pid", child.pid())
	conn.child = child
	conn.watchChild()
	// The child's pipes are read and written without waking the runtime's
	// monitor thread on every message (see pipeio).
	framer := mcpwire.NewStdoutFramer(mcpwire.Wrap(child.stdout), int(d.opts.MaxResultBytes), mcpwire.FramerHooks{
		Oversize:  conn.noteOversized,
		Violation: conn.markBroken,
		End:       conn.stdoutEnded,
	})
	conn.raw = newStdioTransport(framer, mcpwire.Wrap(child.stdin), d.log)
	conn.rawWatchesContext = true
	return nil
}

// watchChild marks the connection broken when the child exits.
func (c *connection) watchChild() {
	c.watch(func() {
		select {
		case <-c.child.exited:
			c.markBroken(fmt.Errorf("server process exited: %s", c.child.exitReason()))
		case <-c.done:
		}
	})
}

// stdoutEndGrace is how long a child whose stdout ended gets to exit before
// the connection is declared broken anyway.
const stdoutEndGrace = 5 * time.Second

// stdoutEnded is called when the child's stdout ends. Usually the child is
// exiting and watchChild reports why; a child that closed its stdout but
// lives on is broken all the same.
func (c *connection) stdoutEnded() {
	go func() {
		timer := time.NewTimer(stdoutEndGrace)
		defer timer.Stop()
		select {
		case <-c.child.exited:
		case <-c.done:
		case <-timer.C:
			c.markBroken(errors.New("server closed its stdout"))
		}
	}()
}
