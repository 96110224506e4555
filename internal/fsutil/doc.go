// Package fsutil holds the two file-system rules every part of toolhub
// shares: where toolhub keeps its data (DataDir), and how a file is replaced
// so that a crash never leaves half of it (WriteFileAtomic).
package fsutil
