//go:build !linux

package mcpwire

import (
	"errors"
	"io"
	"os"
)

// newRaw has no raw path off Linux; Wrap then returns the file itself.
func newRaw(*os.File) (io.ReadWriteCloser, error) {
	return nil, errors.New("raw pipe calls are implemented on Linux only")
}
