//go:build windows

package memtrim

import (
	"fmt"
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

// WorkingSet is the working set of process in bytes: what Windows keeps of
// it in physical memory, its resident size. The handle needs
// PROCESS_QUERY_LIMITED_INFORMATION.
func WorkingSet(process windows.Handle) (int64, error) {
	var c processMemoryCounters
	c.cb = uint32(unsafe.Sizeof(c))
	if ok, _, err := getProcessMemoryInfo.Call(uintptr(process), uintptr(unsafe.Pointer(&c)), uintptr(c.cb)); ok == 0 {
		return 0, fmt.Errorf("GetProcessMemoryInfo: %w", err)
	}
	return int64(c.workingSetSize), nil
}
