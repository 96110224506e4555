package cli

import (
	"fmt"
	"os"
	"path/filepath"
)

// logFileRotateBytes is the size past which a log file is moved to
// NAME.1 (replacing the one there) when toolhub opens it.
const logFileRotateBytes = 10 << 20

// openLogFile opens path for appending logs, making its folder, and
// rotates it first when it has grown past logFileRotateBytes: a service
// that runs for months keeps at most about twice that.
func openLogFile(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("log file folder: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Size() > logFileRotateBytes {
		if err := os.Rename(path, path+".1"); err != nil {
			return nil, fmt.Errorf("rotate the log file: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the log file: %w", err)
	}
	return f, nil
}
