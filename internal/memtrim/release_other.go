//go:build !linux && !windows

package memtrim

// releaseExec drops nothing outside Linux and Windows: there Release
// returns the heap only, and the operating system trims the process's
// pages of the executable by its own rules.
func releaseExec() (Released, error) { return Released{}, nil }
