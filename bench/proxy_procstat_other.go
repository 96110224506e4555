//go:build !linux && !windows

package bench

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// psField is one field of pid's line in ps(1), which macOS and the BSDs
// have in place of /proc.
func psField(pid int, field string) (string, error) {
	out, err := exec.Command("ps", "-o", field+"=", "-p", strconv.Itoa(pid)).Output()
	if err != nil {
		return "", fmt.Errorf("ps -o %s -p %d: %w", field, pid, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// processCPU is the CPU time (user + system) pid has used so far.
func processCPU(pid int) (time.Duration, error) {
	v, err := psField(pid, "time")
	if err != nil {
		return 0, fmt.Errorf("read cpu time: %w", err)
	}
	d, err := parsePSTime(v)
	if err != nil {
		return 0, fmt.Errorf("read cpu time of %d: %w", pid, err)
	}
	return d, nil
}

// processRSS is pid's resident memory in bytes (ps's rss, in KiB).
func processRSS(pid int) (int64, error) {
	v, err := psField(pid, "rss")
	if err != nil {
		return 0, fmt.Errorf("read resident memory: %w", err)
	}
	kb, err := strconv.ParseInt(v, 10, 64)
	if err != nil || kb < 0 {
		return 0, fmt.Errorf("read resident memory of %d: rss %q", pid, v)
	}
	return kb * 1024, nil
}
