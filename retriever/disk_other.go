//go:build !unix

package retriever

import "io/fs"

// allocatedBytes is the file's size where block counts are not available.
func allocatedBytes(info fs.FileInfo) int64 { return info.Size() }
