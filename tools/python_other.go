//go:build !unix

package tools

import "os"

func exitDetails(state *os.ProcessState, _ error) (code int, signal string, timedOut bool) {
	if state == nil {
		return -1, "", false
	}
	return state.ExitCode(), "", false
}
