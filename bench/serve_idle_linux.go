package bench

import (
	"fmt"
	"os"
)

// idleMemory reads pid's resident memory from /proc/<pid>/smaps_rollup.
func idleMemory(pid int) (IdleReport, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if err != nil {
		return IdleReport{}, err
	}
	return parseSmapsRollup(data)
}
