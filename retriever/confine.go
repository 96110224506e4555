package retriever

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A file is read only through an os.Root opened on the resolved folder of
// the root it was found under. os.Root resolves every path component
// itself, relative to that folder's open handle, and refuses any step
// (a symlink, "..") that would leave it. So the check that a file lies
// inside its root and the opening of the file are one operation: a
// symlink swapped after the walk to point elsewhere cannot be followed
// out, whatever the timing.

// errOutsideRoot marks a file that resolves outside its root.
var errOutsideRoot = errors.New("resolves outside the indexed folder: not read")

// confinedRoots holds the open roots of one ingest, by resolved folder.
type confinedRoots map[string]*os.Root

// open returns the root for dir, opening it on first use.
func (c confinedRoots) open(dir string) (*os.Root, error) {
	if r, ok := c[dir]; ok {
		return r, nil
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	c[dir] = r
	return r, nil
}

func (c confinedRoots) close() {
	for _, r := range c {
		_ = r.Close()
	}
}

// readConfined reads rel inside root, at most limit+1 bytes so that the
// caller can tell an oversized file. Only regular files are read.
func readConfined(root *os.Root, rel string, limit int64) ([]byte, error) {
	f, err := openConfined(root, rel)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, skipf("not a regular file")
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// openConfined opens rel inside root. os.Root never follows a symlink
// with an absolute target; such a link is resolved here and, when its
// target lies inside, the target is opened through root, which again
// refuses any step outside.
func openConfined(root *os.Root, rel string) (*os.File, error) {
	f, err := root.Open(rel)
	if err == nil || !escapes(err) {
		return f, err
	}
	target, err := filepath.EvalSymlinks(filepath.Join(root.Name(), rel))
	if err != nil {
		return nil, err
	}
	inside, err := filepath.Rel(root.Name(), target)
	if err != nil || !filepath.IsLocal(inside) {
		return nil, errOutsideRoot
	}
	f, err = root.Open(inside)
	if err != nil && escapes(err) {
		return nil, errOutsideRoot
	}
	return f, err
}

// escapes reports the error os.Root gives for a path that leaves it. The
// os package does not export it, so it is recognised by its text.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}
