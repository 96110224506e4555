//go:build unix

package tools

import (
	"os"
	"syscall"
)

// groupAttr starts the interpreter (or prlimit, which becomes it) as the
// leader of a new process group, so every child it starts can be killed.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killProcessGroup sends SIGKILL to the group led by proc. A group that is
// gone already is not an error.
func killProcessGroup(proc *os.Process) {
	if proc != nil {
		_ = syscall.Kill(-proc.Pid, syscall.SIGKILL)
	}
}

// exitDetails reads how the run ended: the exit code, or -1 and the signal;
// timedOut is set when the CPU-time limit (SIGXCPU) ended it.
func exitDetails(state *os.ProcessState, _ error) (code int, signal string, timedOut bool) {
	if state == nil {
		return -1, "", false
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		sig := ws.Signal()
		return -1, sig.String(), sig == syscall.SIGXCPU
	}
	return state.ExitCode(), "", false
}
