//go:build unix

package hub

import (
	"errors"
	"os"
	"syscall"
)

// newGroupAttr puts the child in a process group of its own, so that the
// whole tree it starts (npx and its node, for one) can be signalled at once.
func newGroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// terminateGroup sends SIGTERM to every process in the group. A group that
// is already gone is not an error.
func terminateGroup(_ *os.Process, pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
}

// killGroup sends SIGKILL to every process in the group.
func killGroup(_ *os.Process, pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// groupGone reports whether no process of the group is left. An orphaned
// grandchild that died but was not yet reaped by init still counts.
func groupGone(pgid int) bool {
	return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}
