package mcpwire

import (
	"io"
	"os"
	"time"
)

// Wrap returns a reader and writer of f that makes raw system calls when f
// is a non-blocking pipe registered with Go's poller (see the package
// comment), and f itself otherwise. Closing the result closes f; a Read or
// Write waiting on f then returns an error, as with f.
func Wrap(f *os.File) io.ReadWriteCloser {
	if !pollable(f) {
		return f
	}
	p, err := newRaw(f)
	if err != nil {
		return f
	}
	return p
}

// pollable reports whether f is a pipe that Go's poller waits on: only
// such a file accepts deadlines.
func pollable(f *os.File) bool {
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		return false
	}
	return f.SetDeadline(time.Time{}) == nil
}
