//go:build windows

package daemon

// Windows has no Unix permission bits to check.
func runtimeChecksMode() bool { return false }
