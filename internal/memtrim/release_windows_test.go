//go:build windows

package memtrim

import (
	"runtime"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"
)

// processMemoryCounters is psapi's PROCESS_MEMORY_COUNTERS.
type processMemoryCounters struct {
	cb                         uint32
	pageFaultCount             uint32
	peakWorkingSetSize         uintptr
	workingSetSize             uintptr
	quotaPeakPagedPoolUsage    uintptr
	quotaPagedPoolUsage        uintptr
	quotaPeakNonPagedPoolUsage uintptr
	quotaNonPagedPoolUsage     uintptr
	pagefileUsage              uintptr
	peakPagefileUsage          uintptr
}

var getProcessMemoryInfo = windows.NewLazySystemDLL("psapi.dll").NewProc("GetProcessMemoryInfo")

// workingSet is the process's working set in bytes.
func workingSet(t *testing.T) uintptr {
	t.Helper()
	var c processMemoryCounters
	c.cb = uint32(unsafe.Sizeof(c))
	ok, _, err := getProcessMemoryInfo.Call(uintptr(windows.CurrentProcess()), uintptr(unsafe.Pointer(&c)), uintptr(c.cb))
	if ok == 0 {
		t.Fatalf("GetProcessMemoryInfo: %v", err)
	}
	return c.workingSetSize
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
