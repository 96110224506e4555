//go:build unix

package tools

import (
	"os"
	"syscall"
)

// pythonUnsupported is empty: the python tool can run here when its
// programs are installed.
const pythonUnsupported = ""

// exitDetails reads how the run ended: the exit code, or -1 and the signal;
// timedOut is set when the CPU-time limit (SIGXCPU) ended it.
func exitDetails(state *os.ProcessState, _ error) (code int, signal string, timedOut bool) {
	if state == nil {
		return -1, "", false
	}
	ws, ok := state.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		sig := ws.Signal()
		return -1, sig.String(), sig == syscall.SIGXCPU
	}
	return state.ExitCode(), "", false
}
