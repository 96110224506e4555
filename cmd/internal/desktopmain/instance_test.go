package desktopmain

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// needUnixSockets skips a test where this system makes no Unix socket
// (Windows before 10 1803, Wine), as the desktop then runs without
// noticing a second start.
func needUnixSockets(t *testing.T, dir string) {
	t.Helper()
	ln, err := net.Listen("unix", filepath.Join(dir, "probe.sock"))
	if err != nil {
		t.Skipf("no Unix sockets here: %v", err)
	}
	ln.Close()
}

func TestSecondStartShowsTheFirstAndExits(t *testing.T) {
	dir := t.TempDir()
	needUnixSockets(t, dir)
	first, err := claimInstance(dir)
	if err != nil {
		t.Fatal(err)
	}
	shown := make(chan struct{}, 2)
	first.serve(func() { shown <- struct{}{} })

	if _, err := claimInstance(dir); !errors.Is(err, errRunning) {
		t.Fatalf("second claim: %v, want errRunning", err)
	}
	select {
	case <-shown:
	default:
		t.Fatal("the first desktop was not asked to show its window")
	}
	first.Close()
	if _, err := os.Stat(filepath.Join(dir, instanceSocket)); !os.IsNotExist(err) {
		t.Fatalf("socket left after Close: %v", err)
	}
	again, err := claimInstance(dir)
	if err != nil {
		t.Fatalf("claim after the first closed: %v", err)
	}
	again.Close()
}

func TestSocketLeftByACrashIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	needUnixSockets(t, dir)
	path := filepath.Join(dir, instanceSocket)
	// A listener closed without removing its file is what a killed
	// desktop leaves behind.
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no stale socket to test with: %v", err)
	}
	inst, err := claimInstance(dir)
	if err != nil {
		t.Fatalf("stale socket not taken over: %v", err)
	}
	inst.Close()
}

// TestNoSocketStillRuns: where no socket can be made (here a path longer
// than a Unix socket's 108 bytes; on a Windows without AF_UNIX, any),
// the desktop runs unguarded instead of refusing to start.
func TestNoSocketStillRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, start := range []string{"first", "second"} {
		inst, err := claimInstance(dir)
		if err != nil {
			t.Fatalf("%s start refused: %v", start, err)
		}
		if inst.unguarded == nil {
			t.Fatalf("%s start: a socket was made at %s; want an unguarded claim", start, inst.path)
		}
		inst.serve(func() { t.Error("an unguarded desktop was asked to show") })
		defer inst.Close()
	}
}
