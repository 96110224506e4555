package retriever

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// fileEntry is one file found by a walk: path as found, and rel, its
// path inside the walk's confining folder, by which it is read.
type fileEntry struct {
	path string
	rel  string
	size int64
}

// walker lists the files under a root, honouring .gitignore files, the
// configured excludes and the size cap.
type walker struct {
	root     string
	confine  string // the resolved folder every file must lie in
	exclude  *ignoreList
	omit     []string // paths removed from under the root: not walked
	maxBytes int64
	lists    map[string]*ignoreList // .gitignore per folder, relative to root
	files    []fileEntry
	skipped  []Event
}

func newWalker(root string, exclude []string, maxBytes int64) *walker {
	return &walker{
		root:     root,
		exclude:  parseIgnore("", strings.Join(exclude, "\n")),
		maxBytes: maxBytes,
		lists:    map[string]*ignoreList{},
	}
}

// walk fills w.files and w.skipped. A root that is a file is taken as is,
// confined to the folder it resolves into.
func (w *walker) walk(ctx context.Context) error {
	st, err := os.Stat(w.root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", w.root, err)
	}
	if !st.IsDir() {
		return w.walkFile()
	}
	if w.confine, err = filepath.EvalSymlinks(w.root); err != nil {
		return fmt.Errorf("walk %s: %w", w.root, err)
	}
	defer w.oneProblemPerFolder()
	return filepath.WalkDir(w.root, func(path string, d fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			w.skipErr(path, err)
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		return w.visit(path, d)
	})
}

// walkFile takes a root that is a file: it is confined to its folder, so
// a symlink given as the root is followed only within that folder.
func (w *walker) walkFile() error {
	dir, err := filepath.EvalSymlinks(filepath.Dir(w.root))
	if err != nil {
		return fmt.Errorf("walk %s: %w", w.root, err)
	}
	w.confine = dir
	base := filepath.Base(w.root)
	st, err := os.Lstat(w.root)
	if err != nil {
		return fmt.Errorf("walk %s: %w", w.root, err)
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return w.visitLink(w.root, base)
	}
	w.consider(w.root, base, st)
	return nil
}

func (w *walker) visit(path string, d fs.DirEntry) error {
	if slices.ContainsFunc(w.omit, func(x string) bool { return isUnder(path, x) }) {
		if d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	}
	rel := w.rel(path)
	if d.IsDir() {
		if rel != "" && (d.Name() == ".git" || w.excluded(rel, true)) {
			return filepath.SkipDir
		}
		w.loadGitignore(path, rel)
		return nil
	}
	if w.excluded(rel, false) {
		return nil
	}
	if d.Type()&fs.ModeSymlink != 0 {
		return w.visitLink(path, filepath.FromSlash(rel))
	}
	st, err := d.Info()
	if err != nil {
		w.skipErr(path, err)
		return nil
	}
	w.consider(path, filepath.FromSlash(rel), st)
	return nil
}

// visitLink takes a symlinked file only when it resolves inside the root.
// Reading checks again (see openConfined), so a link changed after the
// walk cannot lead outside either.
func (w *walker) visitLink(path, rel string) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		w.skip(path, EventSkipped, fmt.Sprintf("broken symlink: %v", err))
		return nil
	}
	inside, err := filepath.Rel(w.confine, target)
	if err != nil || !filepath.IsLocal(inside) {
		w.skip(path, EventSkipped, fmt.Sprintf("symlink to %s, outside the indexed folder: not followed", target))
		return nil
	}
	st, err := os.Stat(target)
	if err != nil {
		w.skipErr(path, err)
		return nil
	}
	if st.IsDir() {
		w.skip(path, EventSkipped, "symlink to a folder: not followed")
		return nil
	}
	w.consider(path, rel, st)
	return nil
}

// consider records a file, or why it is skipped.
func (w *walker) consider(path, rel string, st fs.FileInfo) {
	switch {
	case !st.Mode().IsRegular():
		w.skip(path, EventSkipped, "not a regular file")
	case st.Size() > w.maxBytes:
		w.skip(path, EventSkipped, fmt.Sprintf("%s, over the %s size cap", humanBytes(st.Size()), humanBytes(w.maxBytes)))
	default:
		w.files = append(w.files, fileEntry{path: path, rel: rel, size: st.Size()})
	}
}

func (w *walker) skip(path string, kind EventKind, reason string) {
	w.skipped = append(w.skipped, Event{Kind: kind, Path: path, Reason: reason})
}

// skipErr records a file the walk could not look at: skipped when it was
// deleted meanwhile, failed otherwise.
func (w *walker) skipErr(path string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		w.skip(path, EventSkipped, "deleted during the scan")
		return
	}
	w.skip(path, EventFailed, err.Error())
}

func (w *walker) rel(path string) string {
	rel, err := filepath.Rel(w.root, path)
	if err != nil || rel == "." {
		return ""
	}
	return filepath.ToSlash(rel)
}

// oneProblemPerFolder drops the failure to read a folder's .gitignore
// when reading the folder itself failed too: both come of one unreadable
// folder, which is reported once, under its own path.
func (w *walker) oneProblemPerFolder() {
	failed := map[string]bool{}
	for _, ev := range w.skipped {
		if ev.Kind == EventFailed {
			failed[ev.Path] = true
		}
	}
	w.skipped = slices.DeleteFunc(w.skipped, func(ev Event) bool {
		return ev.Kind == EventFailed && filepath.Base(ev.Path) == ".gitignore" && failed[filepath.Dir(ev.Path)]
	})
}

// loadGitignore reads dir/.gitignore, if any.
func (w *walker) loadGitignore(dir, rel string) {
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		w.skip(filepath.Join(dir, ".gitignore"), EventFailed, err.Error())
		return
	}
	w.lists[rel] = parseIgnore(rel, string(data))
}

// excluded applies the .gitignore files from the root down to rel's
// folder, then the configured excludes, which win when they match.
func (w *walker) excluded(rel string, isDir bool) bool {
	if m, ig := w.exclude.match(rel, isDir); m {
		return ig
	}
	var stack ignoreStack
	if l := w.lists[""]; l != nil {
		stack = append(stack, l)
	}
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		if l := w.lists[strings.Join(parts[:i], "/")]; l != nil {
			stack = append(stack, l)
		}
	}
	return stack.ignored(rel, isDir)
}

// humanBytes formats a size such as "12.5 MiB".
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
