package mcpwire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func newPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

func TestWrapChoosesRawCallsOnlyForPollablePipes(t *testing.T) {
	r, w := newPipe(t)
	regular, err := os.CreateTemp(t.TempDir(), "regular")
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	blockingR, blockingW := newPipe(t)
	// A descriptor the poller does not know: os.NewFile of a blocking fd.
	fd, err := dupFd(blockingR.Fd()) // Fd puts the pipe in blocking mode
	if err != nil {
		t.Fatal(err)
	}
	unpolled := os.NewFile(fd, "unpolled")
	defer unpolled.Close()
	_ = blockingW

	raw := runtime.GOOS == "linux"
	tests := []struct {
		name    string
		f       *os.File
		wantRaw bool
	}{
		{"pipe read end", r, raw},
		{"pipe write end", w, raw},
		{"regular file", regular, false},
		{"blocking pipe", unpolled, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Wrap(tc.f)
			_, isFile := got.(*os.File)
			if isFile == tc.wantRaw {
				t.Errorf("Wrap returned %T; want raw calls: %v", got, tc.wantRaw)
			}
		})
	}
}

func TestLinesRoundTrip(t *testing.T) {
	r, w := newPipe(t)
	src, dst := Wrap(r), Wrap(w)
	lines := []string{"{}", strings.Repeat("x", 200_000), `{"jsonrpc":"2.0","id":1}`}
	go func() {
		for _, l := range lines {
			if _, err := dst.Write([]byte(l + "\n")); err != nil {
				t.Errorf("write: %v", err)
				return
			}
		}
		dst.Close()
	}()
	sc := bufio.NewScanner(src)
	sc.Buffer(nil, 1<<20)
	var got []string
	for sc.Scan() {
		got = append(got, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(lines) {
		t.Fatalf("read %d lines, want %d", len(got), len(lines))
	}
	for i := range lines {
		if got[i] != lines[i] {
			t.Errorf("line %d: %d bytes, want %d", i, len(got[i]), len(lines[i]))
		}
	}
}

// A write larger than the pipe's buffer waits for the reader and still
// arrives whole; writers running at once never interleave their lines.
func TestConcurrentLargeWritesStayWhole(t *testing.T) {
	r, w := newPipe(t)
	src, dst := Wrap(r), Wrap(w)
	const writers, each = 4, 5
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			line := append(bytes.Repeat([]byte{byte('a' + i)}, 300_000), '\n')
			for range each {
				if _, err := dst.Write(line); err != nil {
					t.Errorf("write: %v", err)
					return
				}
			}
		})
	}
	go func() { wg.Wait(); dst.Close() }()
	sc := bufio.NewScanner(src)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) != 300_000 || bytes.Count(line, line[:1]) != len(line) {
			t.Fatalf("line %d is mixed or cut: %d bytes", n, len(line))
		}
		n++
	}
	if n != writers*each {
		t.Errorf("read %d lines, want %d", n, writers*each)
	}
}

func TestCloseReleasesAWaitingRead(t *testing.T) {
	r, _ := newPipe(t)
	src := Wrap(r)
	done := make(chan error, 1)
	go func() {
		_, err := src.Read(make([]byte, 10))
		done <- err
	}()
	time.Sleep(20 * time.Millisecond) // let the read start waiting
	src.Close()
	select {
	case err := <-done:
		if !errors.Is(err, os.ErrClosed) {
			t.Errorf("read after close: %v, want os.ErrClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a read waiting on a closed pipe did not return")
	}
}

func TestWriteToClosedReaderFails(t *testing.T) {
	r, w := newPipe(t)
	dst := Wrap(w)
	r.Close()
	if _, err := dst.Write([]byte("x\n")); !brokenPipe(err) {
		t.Errorf("write with no reader: %v, want a broken pipe", err)
	}
}

func TestReadReportsEOF(t *testing.T) {
	r, w := newPipe(t)
	src := Wrap(r)
	w.Close()
	if n, err := src.Read(make([]byte, 8)); n != 0 || !errors.Is(err, io.EOF) {
		t.Errorf("read at end: %d, %v; want 0, EOF", n, err)
	}
}
