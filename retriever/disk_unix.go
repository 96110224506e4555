//go:build unix

package retriever

import (
	"io/fs"
	"syscall"
)

// allocatedBytes is the disk space a file takes: Badger preallocates
// sparse files, so their apparent size overstates it.
func allocatedBytes(info fs.FileInfo) int64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Blocks * 512
	}
	return info.Size()
}
