//go:build unix

package mcp

import (
	"context"
	"io"
	"os"
	"syscall"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
)

// TestServeStdioOverBlockingPipes serves over real OS pipes handed over in
// blocking mode, as a client starting toolhub hands them, and checks that
// blocking mode is back once serving ends.
func TestServeStdioOverBlockingPipes(t *testing.T) {
	serverIn, clientOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	serverIn.Fd() // Fd puts the descriptor in blocking mode, as exec does for a child
	clientIn, serverOut, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	serverOut.Fd()
	s := testServer(t, newFakeCatalog(), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, serverIn, serverOut) }()
	t.Cleanup(func() {
		cancel()
		_ = clientOut.Close()
		if err := <-done; err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
		for _, f := range []*os.File{serverIn, serverOut} {
			if nonblocking(t, f) {
				t.Errorf("%s was left in non-blocking mode", f.Name())
			}
		}
		_ = serverOut.Close()
		_ = serverIn.Close()
	})
	c := mcpclient.NewClient(transport.NewIO(clientIn, clientOut, nil))
	initClient(t, c, clientOptions{legacy: true})
	if names := listToolNames(t, c); len(names) == 0 {
		t.Fatal("no tools listed over the pipes")
	}
}

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags uintptr
	var errno syscall.Errno
	_ = raw.Control(func(fd uintptr) { flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0) })
	if errno != 0 {
		t.Fatal(errno)
	}
	return flags&syscall.O_NONBLOCK != 0
}

func TestPollableStdioLeavesOtherStreamsAlone(t *testing.T) {
	cases := []struct {
		name string
		in   io.Reader
	}{
		{"an in-memory pipe", func() io.Reader { r, _ := io.Pipe(); return r }()},
		{"a regular file", func() io.Reader {
			f, err := os.CreateTemp(t.TempDir(), "in")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = f.Close() })
			return f
		}()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, _, release := pollableStdio(tc.in, io.Discard)
			defer release()
			if got != tc.in {
				t.Fatalf("pollableStdio replaced %T", tc.in)
			}
		})
	}
}
