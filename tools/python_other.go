//go:build !unix

package tools

import "os"

// pythonUnsupported says why the python tool is not offered here: its
// limits come from prlimit (util-linux) and its isolation from
// bubblewrap, neither of which Windows has.
const pythonUnsupported = "it needs prlimit (util-linux) for its limits, which Windows does not have"

func exitDetails(state *os.ProcessState, _ error) (code int, signal string, timedOut bool) {
	if state == nil {
		return -1, "", false
	}
	return state.ExitCode(), "", false
}
