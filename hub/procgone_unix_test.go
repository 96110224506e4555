//go:build unix

package hub

import (
	"errors"
	"syscall"
)

// processGone reports whether no process has pid: kill(pid, 0) answers
// ESRCH (a zombie not yet reaped still counts as there).
func processGone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
