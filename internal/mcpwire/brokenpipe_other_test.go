//go:build !windows

package mcpwire

import (
	"errors"
	"syscall"
)

// brokenPipe reports whether err is a write to a pipe whose reader is gone.
func brokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
