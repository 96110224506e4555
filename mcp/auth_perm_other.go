//go:build !windows

package mcp

// modeBitsGuardFiles: a file's mode bits decide who reads it.
const modeBitsGuardFiles = true
