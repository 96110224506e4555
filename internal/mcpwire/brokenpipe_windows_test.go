//go:build windows

package mcpwire

import (
	"errors"

	"golang.org/x/sys/windows"
)

// brokenPipe reports whether err is a write to a pipe whose reader is gone:
// Windows says the pipe is being closed, or that it has ended.
func brokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_NO_DATA) || errors.Is(err, windows.ERROR_BROKEN_PIPE)
}
