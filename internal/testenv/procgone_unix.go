//go:build !windows

package testenv

import (
	"errors"
	"syscall"
)

// ProcessGone reports whether no process has pid: kill(pid, 0) answers
// ESRCH (a zombie not yet reaped still counts as there).
func ProcessGone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
