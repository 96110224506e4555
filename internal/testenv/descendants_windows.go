//go:build windows

package testenv

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// parentsByPid maps every process to its parent, from a Toolhelp snapshot.
func parentsByPid() map[int]int {
	out := map[int]int{}
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return out
	}
	defer windows.CloseHandle(snap)
	entry := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err = windows.Process32First(snap, &entry); err == nil; err = windows.Process32Next(snap, &entry) {
		out[int(entry.ProcessID)] = int(entry.ParentProcessID)
	}
	return out
}
