package daemon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/toolhub/toolhub/config"
)

// configSource is the text of the config file f came from, for the readers
// of the sections config.File keeps raw; a config held only in memory, or a
// file not written yet, reads as "{}" so the defaults apply.
func configSource(f *config.File) (path string, data []byte, err error) {
	if f == nil || f.Path == "" {
		return "", []byte(`{}`), nil
	}
	data, err = os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return f.Path, []byte(`{}`), nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("read config: %w", err)
	}
	return f.Path, data, nil
}
