//go:build unix

package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// prepare makes the child the leader of a new process group.
func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// pgroup signals a process group; its id is the leader's pid.
type pgroup int

func attach(cmd *exec.Cmd) (sysGroup, error) { return pgroup(cmd.Process.Pid), nil }

func (g pgroup) interrupt() error { return g.signal(syscall.SIGTERM) }

func (g pgroup) kill() error { return g.signal(syscall.SIGKILL) }

// gone is true once kill(-pgid, 0) finds no process of the group.
func (g pgroup) gone() bool { return errors.Is(syscall.Kill(-int(g), 0), syscall.ESRCH) }

func (pgroup) release() error { return nil }

func (g pgroup) signal(sig syscall.Signal) error {
	if err := syscall.Kill(-int(g), sig); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
