//go:build linux

package mcpwire

import (
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// rawPipe reads and writes a non-blocking pipe with raw system calls and
// waits for it through the poller.
type rawPipe struct {
	f    *os.File
	conn syscall.RawConn
}

var errBlocking = errors.New("pipe is in blocking mode")

func newRaw(f *os.File) (*rawPipe, error) {
	conn, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	var flags uintptr
	var errno syscall.Errno
	if err := conn.Control(func(fd uintptr) {
		flags, _, errno = syscall.RawSyscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil {
		return nil, err
	}
	if errno != 0 {
		return nil, errno
	}
	// A raw call on a blocking descriptor would hold the thread and its
	// processor without the scheduler knowing; never make one.
	if flags&syscall.O_NONBLOCK == 0 {
		return nil, errBlocking
	}
	return &rawPipe{f: f, conn: conn}, nil
}

func (p *rawPipe) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := p.conn.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait in the poller
			}
			n, errno = int(r), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, p.pathError("read", err)
	case errno != 0:
		return 0, &os.PathError{Op: "read", Path: p.f.Name(), Err: errno}
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of b. The poller holds f's write lock until it is done,
// so concurrent writes never interleave, as with os.File.
func (p *rawPipe) Write(b []byte) (int, error) {
	written := 0
	var errno syscall.Errno
	err := p.conn.Write(func(fd uintptr) bool {
		for written < len(b) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[written])), uintptr(len(b)-written))
			switch e {
			case 0:
				written += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // the pipe is full: wait in the poller
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return written, p.pathError("write", err)
	case errno != 0:
		return written, &os.PathError{Op: "write", Path: p.f.Name(), Err: errno}
	}
	return written, nil
}

func (p *rawPipe) Close() error { return p.f.Close() }

// pathError words a poller error as os.File would: a closed file is
// os.ErrClosed.
func (p *rawPipe) pathError(op string, err error) error {
	if errors.Is(err, closedFileError()) {
		err = os.ErrClosed
	}
	return &os.PathError{Op: op, Path: p.f.Name(), Err: err}
}

// closedFileError is the poller's error for a closed file (internal to the
// standard library), learnt once by waiting on a pipe that is then closed.
var closedFileError = sync.OnceValue(func() error {
	r, w, err := os.Pipe()
	if err != nil {
		return os.ErrClosed
	}
	defer w.Close()
	conn, err := r.SyscallConn()
	if err != nil {
		r.Close()
		return os.ErrClosed
	}
	r.Close()
	if err := conn.Read(func(uintptr) bool { return true }); err != nil {
		return err
	}
	return os.ErrClosed
})
