//go:build !unix

package tools

import (
	"os"
	"syscall"
)

// groupAttr: there are no process groups to create on this platform.
func groupAttr() *syscall.SysProcAttr { return nil }

// killProcessGroup kills only the interpreter on this platform.
func killProcessGroup(proc *os.Process) {
	if proc != nil {
		_ = proc.Kill()
	}
}

func exitDetails(state *os.ProcessState, _ error) (code int, signal string, timedOut bool) {
	if state == nil {
		return -1, "", false
	}
	return state.ExitCode(), "", false
}
