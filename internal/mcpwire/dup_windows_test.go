//go:build windows

package mcpwire

import "syscall"

// dupFd duplicates a handle within this process.
func dupFd(fd uintptr) (uintptr, error) {
	self, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0, err
	}
	var h syscall.Handle
	err = syscall.DuplicateHandle(self, syscall.Handle(fd), self, &h, 0, false, syscall.DUPLICATE_SAME_ACCESS)
	return uintptr(h), err
}
