//go:build !unix

package mcp

import "io"

// pollableInput returns in unchanged where pipes are not polled.
func pollableInput(in io.Reader) (io.Reader, func()) { return in, func() {} }
