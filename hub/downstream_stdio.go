package hub

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/toolhub/toolhub/internal/mcpwire"
	"github.com/toolhub/toolhub/internal/proc"
)

// openStdio spawns the child in its own process group and wires its stdout
// through the framer into the hub's stdio transport.
func (d *downstream) openStdio(conn *connection) error {
	child, err := proc.StartChild(proc.ChildSpec{Command: d.spec.Command, Args: d.spec.Args, Env: d.spec.Env, Dir: d.spec.Cwd}, d.stderr)
	if err != nil {
		return err
	}
	d.log.Info("downstream process started", "command", d.spec.Command, "args", len(d.spec.Args), "pid", child.Pid())
	conn.child = child
	conn.watchChild()
	// The child's pipes are read and written without waking the runtime's
	// monitor thread on every message (see pipeio).
	framer := mcpwire.NewStdoutFramer(mcpwire.Wrap(child.Stdout), int(d.opts.MaxResultBytes), mcpwire.FramerHooks{
		Oversize:  conn.noteOversized,
		Violation: conn.markBroken,
		End:       conn.stdoutEnded,
	})
	conn.raw = newStdioTransport(framer, mcpwire.Wrap(child.Stdin), d.log)
	conn.rawWatchesContext = true
	return nil
}

// watchChild marks the connection broken when the child exits.
func (c *connection) watchChild() {
	c.watch(func() {
		select {
		case <-c.child.Exited():
			c.markBroken(fmt.Errorf("server process exited: %s", c.child.ExitReason()))
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
		case <-c.child.Exited():
		case <-c.done:
		case <-timer.C:
			c.markBroken(errors.New("server closed its stdout"))
		}
	}()
}

// CommandMissing reports whether spec is a stdio server whose command is
// on no PATH entry of the environment it would be started with (toolhub's
// allow-listed variables and its configured env): such a server fails at
// its first start. A command given as a path is not checked.
func CommandMissing(spec ServerSpec) bool {
	if spec.Transport != TransportStdio && spec.Transport != "" {
		return false
	}
	_, err := proc.LookPath(spec.Command, proc.ChildEnv(os.Environ(), spec.Env))
	return errors.Is(err, proc.ErrCommandNotFound)
}
