package memtrim

import (
	"fmt"
	"runtime/debug"
)

// Released says what one [Release] gave back.
type Released struct {
	// ExecKB is how much of the executable was resident in the mappings
	// Release dropped, in KiB (0 outside Linux, where it is not known).
	ExecKB int64
	// Mappings is how many mappings of the executable were dropped.
	Mappings int
	// Counted is true where ExecKB and Mappings are measured (Linux).
	Counted bool
}

// Release returns the heap's free pages to the operating system and drops
// this process's resident pages of its own executable that hold code or
// read-only data (Linux) or its whole working set (Windows), so that they
// count again only once they are used again.
func Release() (Released, error) {
	debug.FreeOSMemory()
	r, err := releaseExec()
	if err != nil {
		return r, fmt.Errorf("release the executable's pages: %w", err)
	}
	return r, nil
}
