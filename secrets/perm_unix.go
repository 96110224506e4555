//go:build !windows

package secrets

import (
	"fmt"
	"io/fs"
)

// checkPrivate refuses a secrets file that its group or others may read or
// write: someone may have read it, and a later write would keep the mode.
func checkPrivate(path string, mode fs.FileMode) error {
	if perm := mode.Perm(); perm&0o077 != 0 {
		return fmt.Errorf("read secrets: %s has mode %04o, so other users may read it; refusing it (chmod 600 %s, and consider the secrets in it leaked)", path, perm, path)
	}
	return nil
}
