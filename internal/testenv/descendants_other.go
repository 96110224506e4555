//go:build unix && !linux

package testenv

import (
	"fmt"
	"os/exec"
	"strings"
)

// parentsByPid maps every process to its parent, as ps lists them (macOS
// and the BSDs have no /proc).
func parentsByPid() map[int]int {
	out := map[int]int{}
	list, err := exec.Command("ps", "-A", "-o", "pid=,ppid=").Output()
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(list), "\n") {
		var pid, ppid int
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "%d %d", &pid, &ppid); err == nil {
			out[pid] = ppid
		}
	}
	return out
}
