package hub

import (
	"errors"
	"fmt"
	"os"
	"strings"
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

// CommandProblem says why spec, a stdio server, would fail at its first
// start, and how to mend it: its command is on no PATH entry of the
// environment it would be started with (toolhub's allow-listed variables
// and its configured env), or, given as an absolute path, no program is
// there (nothing, a folder, a file without an execute bit). Both are
// empty when the command is found, or is a relative path (left to the
// start, which knows the working directory).
func CommandProblem(spec ServerSpec) (problem, hint string) {
	if spec.Transport != TransportStdio && spec.Transport != "" {
		return "", ""
	}
	_, err := proc.LookPath(spec.Command, proc.ChildEnv(os.Environ(), spec.Env))
	if !errors.Is(err, proc.ErrCommandNotFound) {
		return "", ""
	}
	hint = strings.TrimPrefix(missingCommandHint(err), "; ")
	if missing, isPath := errors.AsType[*proc.MissingProgramError](err); isPath {
		if missing.NoFile() {
			return fmt.Sprintf("there is no file at %q", spec.Command), hint
		}
		return fmt.Sprintf("%q %s", spec.Command, missing.Reason), hint
	}
	return fmt.Sprintf("command %q is on no PATH entry here", spec.Command), hint
}
