//go:build linux

package memtrim

import (
	"os"

	"golang.org/x/sys/unix"
)

// releaseExec drops the executable's read-only mappings with
// madvise(MADV_DONTNEED). For a private mapping of a file whose pages were
// never written that only unmaps them: the next access maps the same page
// of the file again.
func releaseExec() (Released, error) {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return Released{}, err
	}
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return Released{}, err
	}
	r := Released{Counted: true}
	for _, m := range releasable(parseSmaps(data), exe) {
		_, _, errno := unix.Syscall(unix.SYS_MADVISE, uintptr(m.start), uintptr(m.end-m.start), unix.MADV_DONTNEED)
		if errno != 0 {
			return r, errno
		}
		r.ExecKB += m.rssKB
		r.Mappings++
	}
	return r, nil
}
