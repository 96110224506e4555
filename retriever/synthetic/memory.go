package synthetic

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Memory is the process's resident memory, from /proc/self/status.
type Memory struct {
	RSSBytes  int64 `json:"rss_bytes"`  // VmRSS: resident now
	PeakBytes int64 `json:"peak_bytes"` // VmHWM: highest resident so far
	// AnonBytes is the part of RSS that is process memory (RssAnon);
	// FileBytes is memory-mapped files (RssFile: Badger's value log and
	// tables, Bleve's segments), which the kernel can drop and reload.
	AnonBytes int64 `json:"anon_bytes"`
	FileBytes int64 `json:"file_bytes"`
}

// ReadMemory reads VmRSS, VmHWM, RssAnon and RssFile (Linux only).
func ReadMemory() (Memory, error) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return Memory{}, fmt.Errorf("read memory: %w", err)
	}
	defer func() { _ = f.Close() }()
	var m Memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		switch key {
		case "VmRSS":
			m.RSSBytes = parseKB(val)
		case "VmHWM":
			m.PeakBytes = parseKB(val)
		case "RssAnon":
			m.AnonBytes = parseKB(val)
		case "RssFile":
			m.FileBytes = parseKB(val)
		}
	}
	if err := sc.Err(); err != nil {
		return m, fmt.Errorf("read memory: %w", err)
	}
	return m, nil
}

// parseKB turns "  1234 kB" into bytes.
func parseKB(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "kB")), 10, 64)
	if err != nil {
		return 0
	}
	return n << 10
}
