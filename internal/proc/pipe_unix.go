//go:build unix

package proc

import (
	"errors"
	"syscall"
)

// BrokenPipe reports whether err is a write to a pipe whose reader is gone,
// as writing to a child that has exited fails.
func BrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE)
}
