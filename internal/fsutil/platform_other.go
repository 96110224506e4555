//go:build !windows

package fsutil

// onWindows: toolhub keeps its data where Windows programs keep theirs.
const onWindows = false
