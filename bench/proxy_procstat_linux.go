package bench

import (
	"fmt"
	"os"
	"time"
)

// clockTicksPerSecond is Linux's USER_HZ, the unit of utime and stime in
// /proc/<pid>/stat. It is 100 on every mainstream architecture; pure Go has
// no sysconf to ask.
const clockTicksPerSecond = 100

// processCPU is the CPU time (user + system) pid has used so far.
func processCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read cpu time: %w", err)
	}
	ticks, err := parseStatCPUTicks(data)
	if err != nil {
		return 0, fmt.Errorf("read cpu time of %d: %w", pid, err)
	}
	return time.Duration(ticks) * time.Second / clockTicksPerSecond, nil
}

// processRSS is pid's resident memory in bytes (VmRSS).
func processRSS(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read resident memory: %w", err)
	}
	rss, err := parseStatusRSS(data)
	if err != nil {
		return 0, fmt.Errorf("read resident memory of %d: %w", pid, err)
	}
	return rss, nil
}
