package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
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

// parseStatCPUTicks reads utime + stime (fields 14 and 15) from the content
// of /proc/<pid>/stat. The command name (field 2) is in parentheses and may
// itself hold spaces and parentheses, so fields are counted from the last ')'.
func parseStatCPUTicks(stat []byte) (int64, error) {
	end := bytes.LastIndexByte(stat, ')')
	if end < 0 {
		return 0, errors.New("no command name in stat")
	}
	fields := strings.Fields(string(stat[end+1:]))
	// fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12.
	if len(fields) < 13 {
		return 0, errors.New("stat has too few fields")
	}
	utime, err := strconv.ParseInt(fields[11], 10, 64)
	if err != nil || utime < 0 {
		return 0, fmt.Errorf("utime %q", fields[11])
	}
	stime, err := strconv.ParseInt(fields[12], 10, 64)
	if err != nil || stime < 0 {
		return 0, fmt.Errorf("stime %q", fields[12])
	}
	return utime + stime, nil
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

// parseStatusRSS reads the "VmRSS:  1234 kB" line of /proc/<pid>/status.
func parseStatusRSS(status []byte) (int64, error) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) != 2 || fields[1] != "kB" {
			return 0, fmt.Errorf("VmRSS line %q", sc.Text())
		}
		kb, err := strconv.ParseInt(fields[0], 10, 64)
		if err != nil || kb < 0 || kb > 1<<40 {
			return 0, fmt.Errorf("VmRSS value %q", fields[0])
		}
		return kb * 1024, nil
	}
	return 0, errors.New("no VmRSS line")
}
