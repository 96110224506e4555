//go:build unix

package mcpwire

import "syscall"

// dupFd duplicates a file descriptor.
func dupFd(fd uintptr) (uintptr, error) {
	nfd, err := syscall.Dup(int(fd))
	return uintptr(nfd), err
}
