//go:build !unix

package mcp

import "io"

// pollableStdio returns the streams unchanged where pipes are not polled.
func pollableStdio(in io.Reader, out io.Writer) (io.Reader, io.Writer, func()) {
	return in, out, func() {}
}
