package service

import "github.com/toolhub/toolhub/internal/fsutil"

// writeFileAtomic replaces path with data (mode 0644), creating its
// directory: readers see the old file or the new one, never a part.
func writeFileAtomic(path string, data []byte) error {
	return fsutil.WriteFileAtomic(path, data, 0o644)
}
