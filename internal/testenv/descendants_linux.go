package testenv

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// parentsByPid maps every process to its parent, read from /proc.
func parentsByPid() map[int]int {
	out := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			out[pid] = ppid
		}
	}
	return out
}

func parentOf(pid int) (int, bool) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PPid:"); ok {
			var ppid int
			_, err := fmt.Sscanf(strings.TrimSpace(v), "%d", &ppid)
			return ppid, err == nil
		}
	}
	return 0, false
}
