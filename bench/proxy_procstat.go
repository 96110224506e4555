package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

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

// parsePSTime reads ps(1)'s cumulative CPU time, [[dd-]hh:]mm:ss[.ss]
// ("0:00.12" on macOS, "00:00:01" on the BSDs).
func parsePSTime(s string) (time.Duration, error) {
	var days int64
	if d, rest, ok := strings.Cut(s, "-"); ok {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("cpu time %q", s)
		}
		days, s = n, rest
	}
	parts := strings.Split(s, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, fmt.Errorf("cpu time %q", s)
	}
	secs, err := strconv.ParseFloat(parts[len(parts)-1], 64)
	if err != nil || secs < 0 || secs >= 60 {
		return 0, fmt.Errorf("cpu time %q", s)
	}
	total := time.Duration(days)*24*time.Hour + time.Duration(secs*float64(time.Second))
	unit := time.Minute
	for i := len(parts) - 2; i >= 0; i-- {
		n, err := strconv.ParseInt(parts[i], 10, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("cpu time %q", s)
		}
		total += time.Duration(n) * unit
		unit *= 60
	}
	return total, nil
}
