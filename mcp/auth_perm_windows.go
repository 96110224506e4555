//go:build windows

package mcp

// modeBitsGuardFiles: on Windows a file's ACL decides who reads it, and Go
// reports every file as -rw-rw-rw-; a token file in the user's profile is
// the user's alone.
const modeBitsGuardFiles = false
