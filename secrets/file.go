package secrets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gofrs/flock"

	"github.com/toolhub/toolhub/internal/fsutil"
)

// fileVersion is the version of the file format written.
const fileVersion = 1

// maxFileSize bounds what is read from a secrets or index file.
const maxFileSize = 4 << 20

// lockTimeout bounds the wait for another process's change to the file.
const lockTimeout = 10 * time.Second

// fileStore is one JSON file of names and values, {"version": 1,
// "secrets": {"name": "value"}}: the fallback store, or the index of names
// kept in the keychain (every value empty).
type fileStore struct {
	path string
	lock string // the lock file shared by every change in the folder
}

// fileDoc is the file's shape.
type fileDoc struct {
	Version int               `json:"version"`
	Secrets map[string]string `json:"secrets"`
}

// read returns the file's names and values; a missing file is empty. On
// unix a file that others than its owner may read is refused.
func (f *fileStore) read() (map[string]string, error) {
	file, err := os.Open(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	if err := checkPrivate(f.path, st.Mode()); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(file, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("read secrets: %s is larger than %d bytes", f.path, maxFileSize)
	}
	values, err := parseFile(data)
	if err != nil {
		return nil, fmt.Errorf("read secrets: %s: %w", f.path, err)
	}
	return values, nil
}

// update changes the file under the folder's lock: it re-reads the file,
// so that another process's change made meanwhile is kept, applies change,
// and replaces the file atomically (0600).
func (f *fileStore) update(change func(map[string]string)) (err error) {
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return fmt.Errorf("write secrets: %w", err)
	}
	lock := flock.New(f.lock, flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), lockTimeout)
	defer cancel()
	locked, err := lock.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil || !locked {
		return fmt.Errorf("write secrets: lock %s: another toolhub holds it: %w", f.lock, errors.Join(err, ctx.Err()))
	}
	defer func() {
		if uerr := lock.Unlock(); uerr != nil && err == nil {
			err = fmt.Errorf("write secrets: unlock %s: %w", f.lock, uerr)
		}
	}()
	values, err := f.read()
	if err != nil {
		return err
	}
	change(values)
	return fsutil.WriteFileAtomic(f.path, encodeFile(values), 0o600)
}

// parseFile decodes a secrets or index file. Errors never quote the file's
// content: it holds secrets.
func parseFile(data []byte) (map[string]string, error) {
	var doc fileDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, fmt.Errorf("not valid JSON (at byte %d)", syntax.Offset)
		}
		return nil, errors.New(`want {"version": 1, "secrets": {"name": "value", ...}}`)
	}
	if doc.Version != fileVersion {
		return nil, fmt.Errorf("version %d: this toolhub reads version %d", doc.Version, fileVersion)
	}
	if doc.Secrets == nil {
		doc.Secrets = map[string]string{}
	}
	for name := range doc.Secrets {
		if err := CheckName(name); err != nil {
			return nil, err
		}
	}
	return doc.Secrets, nil
}

// encodeFile is the file's content for values, keys sorted.
func encodeFile(values map[string]string) []byte {
	data, err := json.MarshalIndent(fileDoc{Version: fileVersion, Secrets: values}, "", "  ")
	if err != nil {
		panic("secrets: encoding a map of strings: " + err.Error()) // cannot happen
	}
	return append(data, '\n')
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
