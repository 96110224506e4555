//go:build windows

package service

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	kernel32                  = windows.NewLazySystemDLL("kernel32.dll")
	procGetConsoleProcessList = kernel32.NewProc("GetConsoleProcessList")
	procFreeConsole           = kernel32.NewProc("FreeConsole")
)

// DetachOwnConsole gives up a console window Windows opened for this
// process alone. A console program that a scheduled task starts at logon
// gets a window of its own, which would stay on the desktop for as long as
// the service runs (and closing it would end the service). A console
// shared with another process (a shell toolhub was started from) is kept.
// It reports whether the console was given up.
func DetachOwnConsole() bool {
	var pids [2]uint32
	n, _, _ := procGetConsoleProcessList.Call(uintptr(unsafe.Pointer(&pids[0])), uintptr(len(pids)))
	if n != 1 {
		return false
	}
	ok, _, _ := procFreeConsole.Call()
	return ok != 0
}
