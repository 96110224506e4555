//go:build unix

package mcp

import (
	"io"
	"os"
	"syscall"

	"github.com/toolhub/toolhub/internal/mcpwire"
)

// pollablePipe returns a reader and writer of the same pipe that Go's
// poller can wait on, and the function that releases it. A client starting
// toolhub hands it blocking pipes as stdin and stdout; a blocking read holds
// an OS thread while it waits, and every message then costs the runtime a
// thread hand-off (sysmon retakes the processor, another thread is woken).
// The pipe is switched to non-blocking mode (which the duplicate shares
// with the original descriptor) and used through a duplicate the poller
// waits on, with pipeio's raw calls; release puts blocking mode back.
// Anything that is not a pipe is returned as it is.
func pollablePipe(stream any) (io.ReadWriter, func()) {
	f, ok := stream.(*os.File)
	if !ok {
		return nil, func() {}
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		return nil, func() {}
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return nil, func() {}
	}
	dup := -1
	_ = conn.Control(func(fd uintptr) { dup, err = syscall.Dup(int(fd)) })
	if err != nil || dup < 0 {
		return nil, func() {}
	}
	syscall.CloseOnExec(dup)
	if err := syscall.SetNonblock(dup, true); err != nil {
		_ = syscall.Close(dup)
		return nil, func() {}
	}
	polled := os.NewFile(uintptr(dup), f.Name())
	return mcpwire.Wrap(polled), func() {
		if raw, err := polled.SyscallConn(); err == nil {
			_ = raw.Control(func(fd uintptr) { _ = syscall.SetNonblock(int(fd), false) })
		}
		_ = polled.Close()
	}
}

// pollableStdio applies pollablePipe to both of ServeStdio's streams.
func pollableStdio(in io.Reader, out io.Writer) (io.Reader, io.Writer, func()) {
	polledIn, releaseIn := pollablePipe(in)
	if polledIn != nil {
		in = polledIn
	}
	polledOut, releaseOut := pollablePipe(out)
	if polledOut != nil {
		out = polledOut
	}
	return in, out, func() { releaseOut(); releaseIn() }
}
