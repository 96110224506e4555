//go:build !windows

package service

// DetachOwnConsole does nothing outside Windows, where no console window
// is opened for a service.
func DetachOwnConsole() bool { return false }
