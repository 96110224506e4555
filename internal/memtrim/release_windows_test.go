//go:build windows

package memtrim

import (
	"runtime"
	"testing"

	"golang.org/x/sys/windows"
)

// workingSet is this process's working set in bytes.
func workingSet(t *testing.T) int64 {
	t.Helper()
	n, err := WorkingSet(windows.CurrentProcess())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestReleaseEmptiesTheWorkingSet: after a release the process holds less
// than the 64 MiB it has just written, though the buffer is still live,
// and it reads the buffer back intact.
func TestReleaseEmptiesTheWorkingSet(t *testing.T) {
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	before := workingSet(t)
	if _, err := Release(); err != nil {
		t.Fatal(err)
	}
	after := workingSet(t)
	if after+32<<20 > before {
		t.Errorf("working set %d MiB after the release, %d MiB before", after>>20, before>>20)
	}
	for i := 0; i < len(buf); i += 4096 {
		if buf[i] != byte(i) {
			t.Fatalf("byte %d is %d after the release", i, buf[i])
		}
	}
	runtime.KeepAlive(buf)
}
