//go:build unix

package mcp

import (
	"io"
	"os"
	"syscall"
)

// pollableInput returns a reader of the same pipe that Go's poller can
// wait on, and the function that releases it. A client starting toolhub
// hands it a blocking pipe as stdin; a blocking read holds an OS thread
// while it waits, and every message then costs the runtime a thread
// hand-off (sysmon retakes the processor, another thread is woken). The
// pipe is switched to non-blocking mode (which the duplicate shares with
// the original descriptor) and read through a duplicate the poller waits
// on; release puts blocking mode back. Anything that is not a pipe is
// returned as it is.
func pollableInput(in io.Reader) (io.Reader, func()) {
	f, ok := in.(*os.File)
	if !ok {
		return in, func() {}
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		return in, func() {}
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return in, func() {}
	}
	dup := -1
	_ = conn.Control(func(fd uintptr) { dup, err = syscall.Dup(int(fd)) })
	if err != nil || dup < 0 {
		return in, func() {}
	}
	syscall.CloseOnExec(dup)
	if err := syscall.SetNonblock(dup, true); err != nil {
		_ = syscall.Close(dup)
		return in, func() {}
	}
	polled := os.NewFile(uintptr(dup), f.Name())
	return polled, func() {
		if raw, err := polled.SyscallConn(); err == nil {
			_ = raw.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
		}
		_ = polled.Close()
	}
}
