package retriever

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/dgraph-io/badger/v4"
)

func (o IngestOptions) withDefaults() IngestOptions {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = DefaultMaxFileBytes
	}
	return o
}

// IngestPaths indexes files and folders. Folders are walked honouring
// .gitignore files and opts.Exclude; binary and oversized files are
// skipped with a reason. Files whose content hash is unchanged are not
// read again into the index, changed ones are re-indexed, and indexed
// files under a given folder that are gone (or now excluded) are removed;
// documents under a root or folder that cannot be read at all (a drive
// not mounted) are kept. With no paths it refreshes the roots indexed
// before. A file that cannot be read or parsed is reported in the result;
// the rest goes on. A given path that does not exist is an error.
func (ix *Index) IngestPaths(ctx context.Context, paths []string, opts IngestOptions) (IngestReport, error) {
	opts = opts.withDefaults()
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	roots, err := ix.resolveRoots(paths)
	if err != nil {
		return IngestReport{}, err
	}
	start := time.Now()
	t := &tally{progress: opts.Progress}
	omit, err := ix.loadOmissions()
	if err != nil {
		return IngestReport{}, err
	}
	confined := confinedRoots{}
	defer confined.close()
	jobs, unreadable := ix.scan(ctx, roots, omit, confined, opts, t)
	if err := ctx.Err(); err != nil {
		return t.report, err
	}
	scope := embedScope{all: len(paths) == 0, roots: roots}
	err = ix.ingest(ctx, jobs, opts, t, scope, func(seen map[string]bool) error {
		return ix.removeUnseen(roots, omit, seen, unreadable, t)
	})
	return ix.finishReport(t, start), err
}

// IngestDocuments indexes documents given as text, through the same
// pipeline as files: unchanged ones (same title and text) are skipped,
// changed ones replaced. Nothing else is removed. The vectors computed are
// those the given documents lack; with no documents, every chunk that
// lacks one is embedded.
func (ix *Index) IngestDocuments(ctx context.Context, docs []Document, opts IngestOptions) (IngestReport, error) {
	opts = opts.withDefaults()
	ix.writeMu.Lock()
	defer ix.writeMu.Unlock()
	start := time.Now()
	t := &tally{progress: opts.Progress}
	byPath := map[string]int{}
	var jobs []job
	for _, d := range docs {
		if d.Path == "" {
			return IngestReport{}, errors.New("ingest documents: a document has no path")
		}
		if i, dup := byPath[d.Path]; dup {
			jobs[i] = job{path: d.Path, doc: &d}
			continue
		}
		byPath[d.Path] = len(jobs)
		jobs = append(jobs, job{path: d.Path, doc: &d})
	}
	t.total = len(jobs)
	scope := embedScope{all: len(jobs) == 0, docs: make([]string, len(jobs))}
	for i, j := range jobs {
		scope.docs[i] = j.path
	}
	err := ix.ingest(ctx, jobs, opts, t, scope, nil)
	return ix.finishReport(t, start), err
}

// ingest runs the pipeline over jobs, then the optional cleanup, then the
// vector backfill of the scope, keeping the dirty flag up while the
// stores change.
func (ix *Index) ingest(ctx context.Context, jobs []job, opts IngestOptions, t *tally, scope embedScope, cleanup func(map[string]bool) error) error {
	if err := setFlag(ix.db, keyDirty, true); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	seen, err := ix.runPipeline(ctx, jobs, opts, t)
	if err == nil && cleanup != nil {
		err = cleanup(seen)
	}
	if err == nil {
		ix.embedMissing(ctx, t, scope)
	}
	if t.report.Removed > 0 || t.report.Indexed > 0 {
		collectGarbage(ix.db)
	}
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("ingest: %w", err) // leave the dirty flag: Open will sweep
	}
	if flagErr := setFlag(ix.db, keyDirty, false); flagErr != nil && err == nil {
		err = fmt.Errorf("ingest: %w", flagErr)
	}
	return err
}

func (ix *Index) finishReport(t *tally, start time.Time) IngestReport {
	t.report.Duration = time.Since(start)
	t.emit(Event{Kind: EventDone})
	return t.report
}

// resolveRoots makes paths absolute and records the folders and regular
// files among them as roots; anything else (a device, a FIFO) is walked,
// to be reported as skipped, but not kept. No paths means the recorded
// roots.
func (ix *Index) resolveRoots(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return ix.Roots()
	}
	roots := make([]string, len(paths))
	var kept []string
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		var st fs.FileInfo
		if err == nil {
			st, err = os.Stat(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("ingest: %w", err)
		}
		roots[i] = abs
		if st.IsDir() || st.Mode().IsRegular() {
			kept = append(kept, abs)
		}
	}
	err := updateEach(ix.db, kept, func(txn *badger.Txn, root string) error {
		if err := ix.unomit(txn, root); err != nil {
			return err
		}
		return txn.Set(rootKey(root), nil)
	})
	if err != nil {
		return nil, fmt.Errorf("record roots: %w", err)
	}
	return roots, nil
}

// scan walks the roots and returns one job per file, and the paths that
// could not be read; walk problems are reported as events.
func (ix *Index) scan(ctx context.Context, roots []string, omit omissions, confined confinedRoots, opts IngestOptions, t *tally) ([]job, []string) {
	var jobs []job
	var problems []Event
	var unreadable []string
	seen := map[string]bool{}
	for _, root := range roots {
		w := newWalker(root, opts.Exclude, opts.MaxFileBytes)
		w.omit = omit.under(root)
		if err := w.walk(ctx); err != nil {
			reason := err.Error()
			if errors.Is(err, fs.ErrNotExist) {
				reason = "no such file or folder; its indexed documents are kept until it is removed from the index"
			}
			problems = append(problems, Event{Kind: EventFailed, Path: root, Reason: reason})
		}
		problems = append(problems, w.skipped...)
		if len(w.files) == 0 {
			continue
		}
		dir, err := confined.open(w.confine)
		if err != nil {
			problems = append(problems, Event{Kind: EventFailed, Path: root, Reason: err.Error()})
			continue
		}
		for _, f := range w.files {
			if !seen[f.path] {
				seen[f.path] = true
				jobs = append(jobs, job{path: f.path, size: f.size, root: dir, rel: f.rel})
			}
		}
	}
	for _, ev := range problems {
		if ev.Kind == EventFailed {
			unreadable = append(unreadable, ev.Path)
		}
	}
	t.total = len(jobs) + len(problems)
	t.report.Scanned = len(jobs)
	t.emit(Event{Kind: EventScanned})
	for _, ev := range problems {
		t.emit(ev)
	}
	return jobs, unreadable
}

// removeUnseen drops the documents under roots that the walk did not
// index or find unchanged, except under paths it could not read and those
// of roots inside an excluded folder.
func (ix *Index) removeUnseen(roots []string, omit omissions, seen map[string]bool, unreadable []string, t *tally) error {
	var gone []*docRecord
	kept := func(path string) bool {
		return slices.ContainsFunc(unreadable, func(u string) bool { return isUnder(path, u) })
	}
	for _, root := range roots {
		err := eachDoc(ix.db, root, func(rec *docRecord) error {
			if isUnder(rec.Path, root) && !seen[rec.Path] && !kept(rec.Path) && !omit.ownedElsewhere(rec.Path, root) {
				gone = append(gone, rec)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("list documents under %s: %w", root, err)
		}
	}
	for start := 0; start < len(gone); start += bleveBatchChunks {
		batch := gone[start:min(start+bleveBatchChunks, len(gone))]
		if err := ix.removeDocs(batch); err != nil {
			return err
		}
		for _, rec := range batch {
			t.emit(Event{Kind: EventRemoved, Path: rec.Path})
		}
	}
	return nil
}
