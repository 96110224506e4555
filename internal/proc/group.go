package proc

import (
	"fmt"
	"os/exec"
)

// Group is a started child and every process it starts. Its methods are
// safe to call after the tree has ended.
type Group struct {
	cmd *exec.Cmd
	sys sysGroup
}

// Start starts cmd as the root of a new process tree. cmd.SysProcAttr may
// be nil; the fields this package needs are set on it. On failure nothing
// is left running.
func Start(cmd *exec.Cmd) (*Group, error) {
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sys, err := attach(cmd)
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("supervise %s: %w", cmd.Path, err)
	}
	return &Group{cmd: cmd, sys: sys}, nil
}

// Pid is the root process's id (on Unix also the process group id).
func (g *Group) Pid() int { return g.cmd.Process.Pid }

// Interrupt asks every process of the tree to exit: SIGTERM to the process
// group, or CTRL_BREAK_EVENT to the console process group on Windows. A
// tree that is gone already is not an error.
func (g *Group) Interrupt() error { return g.sys.interrupt() }

// Kill ends every process of the tree at once: SIGKILL to the process
// group, or TerminateJobObject on Windows.
func (g *Group) Kill() error { return g.sys.kill() }

// Gone reports whether no process of the tree is left. On Unix an exited
// but not yet reaped process still counts.
func (g *Group) Gone() bool { return g.sys.gone() }

// Release frees what the group holds once the tree is stopped (the job
// handle on Windows, which ends any process still in it). Call it once,
// after the root was reaped.
func (g *Group) Release() error { return g.sys.release() }

// sysGroup is the platform's half of a Group.
type sysGroup interface {
	interrupt() error
	kill() error
	gone() bool
	release() error
}
