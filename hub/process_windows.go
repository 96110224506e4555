//go:build windows

package hub

import (
	"os"
	"syscall"
)

// newGroupAttr starts the child in a new process group. Windows has no
// group-wide kill here: only the child itself is terminated, and processes
// it started may survive it (a job object would be needed to end them).
func newGroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminateGroup ends the child; Windows has no gentler signal for it.
func terminateGroup(p *os.Process, _ int) {
	_ = p.Kill()
}

func killGroup(p *os.Process, _ int) {
	_ = p.Kill()
}

// groupGone is true once the child is reaped; the caller checks that first.
func groupGone(int) bool { return true }
