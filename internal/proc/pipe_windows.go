//go:build windows

package proc

import (
	"errors"

	"golang.org/x/sys/windows"
)

// BrokenPipe reports whether err is a write to a pipe whose reader is gone,
// as writing to a child that has exited fails.
func BrokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA)
}
