//go:build windows

package bench

import (
	"fmt"
	"time"

	"golang.org/x/sys/windows"

	"github.com/toolhub/toolhub/internal/memtrim"
)

// openForFigures opens pid with the one right its times and memory need.
func openForFigures(pid int) (windows.Handle, error) {
	return windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
}

// processCPU is the CPU time (user + kernel) pid has used so far.
func processCPU(pid int) (time.Duration, error) {
	h, err := openForFigures(pid)
	if err != nil {
		return 0, fmt.Errorf("read cpu time of %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0, fmt.Errorf("read cpu time of %d: %w", pid, err)
	}
	return filetimeSpan(kernel) + filetimeSpan(user), nil
}

// filetimeSpan is a FILETIME that holds a span (100 ns units), not a date.
func filetimeSpan(ft windows.Filetime) time.Duration {
	return time.Duration(uint64(ft.HighDateTime)<<32|uint64(ft.LowDateTime)) * 100
}

// processRSS is pid's resident memory in bytes: its working set, what
// Windows keeps of it in physical memory.
func processRSS(pid int) (int64, error) {
	h, err := openForFigures(pid)
	if err != nil {
		return 0, fmt.Errorf("read resident memory of %d: %w", pid, err)
	}
	defer windows.CloseHandle(h)
	n, err := memtrim.WorkingSet(h)
	if err != nil {
		return 0, fmt.Errorf("read resident memory of %d: %w", pid, err)
	}
	return n, nil
}
