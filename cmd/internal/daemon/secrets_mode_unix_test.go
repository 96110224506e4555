//go:build !windows

package daemon

func runtimeChecksMode() bool { return true }
