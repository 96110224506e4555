package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/retriever"
)

func newIndexCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Manage the private document index",
		Long: `The index holds the text of your files, cut into chunks, in a Badger store
with a BM25 full-text index beside it (and chunk vectors when the config names
an embedding endpoint under documents.embedder). It lives in documents.dir, or
$XDG_DATA_HOME/toolhub/index (~/.local/share/toolhub/index; on Windows
%LOCALAPPDATA%\toolhub\index) by default.
Nothing leaves the machine unless the embedding endpoint is remote.`,
	}
	cmd.AddCommand(newIndexAddCommand(g), newIndexRmCommand(g), newIndexLsCommand(g), newIndexStatusCommand(g))
	return cmd
}

func newIndexAddCommand(g *globals) *cobra.Command {
	var asJSON bool
	var workers int
	cmd := &cobra.Command{
		Use:   "add [PATH...]",
		Short: "Index files and folders, or refresh what is indexed",
		Long: `Reads the files under each PATH into the index, honouring .gitignore files
and documents.exclude, skipping binaries and files over documents.maxFileBytes.
Unchanged files (same content hash) are skipped, changed ones re-indexed, and
files gone from a folder removed. Without PATH it refreshes documents.roots
and every path added before. A folder or file removed with ` + "`index rm`" + ` from
inside an indexed folder stays out until it is added again by name. With an
embedder, the chunks of the given PATHs that lack a vector are embedded; a
run without PATH embeds every chunk that lacks one (after a change of
embedding model, all of them). A file that cannot be read or parsed is
reported and the rest goes on; the exit status is then 1.`,
		Example: "  toolhub index add ~/notes ~/papers\n  toolhub index add",
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, p := range args {
				if err := needPath(p); err != nil {
					return err
				}
			}
			cfg, err := g.loadConfig()
			if err != nil {
				return err
			}
			ix, err := g.openIndex(cmd.Context(), cfg.Documents, true)
			if err != nil {
				return err
			}
			defer func() { _ = ix.Close() }()
			paths, err := ingestTargets(ix, cfg.Documents, args)
			if err != nil {
				return err
			}
			progress, done := g.ingestProgress()
			rep, err := ix.IngestPaths(cmd.Context(), paths, retriever.IngestOptions{
				Workers: workers, Exclude: cfg.Documents.Exclude, MaxFileBytes: cfg.Documents.MaxFileBytes, Progress: progress,
			})
			done()
			if asJSON {
				if jerr := writeJSON(g.stdio.Out, rep); jerr != nil {
					return jerr
				}
			} else {
				printIngestReport(g.stdio.Out, rep)
			}
			if err == nil && rep.Failed > 0 {
				return &exitError{code: exitToolError, err: fmt.Errorf("%s could not be indexed (listed above)", conductor.Count(rep.Failed, "file"))}
			}
			return err
		},
	}
	cmd.Flags().IntVar(&workers, "workers", 0, "files read in parallel (default: one per CPU)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

// ingestTargets is PATH... when given, else the configured and recorded roots.
func ingestTargets(ix *retriever.Index, docs config.Documents, args []string) ([]string, error) {
	if len(args) > 0 {
		return args, nil
	}
	home, _ := os.UserHomeDir()
	recorded, err := ix.Roots()
	if err != nil {
		return nil, err
	}
	paths := slices.Concat(docs.ResolvedRoots(home), recorded)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(paths) == 0 {
		return nil, usageError("nothing to index: give a PATH or list folders in documents.roots")
	}
	return paths, nil
}

func newIndexRmCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "rm PATH",
		Short: "Remove a file or folder from the index",
		Long: `Removes PATH and every indexed document under it, and stops refreshing it.
A PATH inside an indexed folder is recorded as excluded (index status lists
it), so refreshing the folder leaves it out; ` + "`index add PATH`" + ` brings it back.
A PATH the index knows nothing of (no indexed document, added path or
excluded path at or under it, and not inside an indexed folder) is an
error: nothing is changed and the exit status is 1.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ix, _, err := g.openConfiguredIndex(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer func() { _ = ix.Close() }()
			n, err := ix.Remove(cmd.Context(), args[0])
			if errors.Is(err, retriever.ErrNotIndexed) {
				return fmt.Errorf("%w (`toolhub index status` lists the added paths, `toolhub index ls` the documents)", err)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(g.stdio.Out, "removed %s under %s\n", conductor.Count(n, "document"), retriever.DisplayPath(args[0]))
			excluded, err := ix.Excluded()
			if err != nil {
				return err
			}
			if p := filepath.Clean(absIfExists(args[0])); slices.Contains(excluded, p) {
				shown := retriever.DisplayPath(p)
				fmt.Fprintf(g.stdio.Out, "%s stays out of the index when its folder is refreshed; `toolhub index add %s` brings it back\n", shown, shown)
			}
			return nil
		},
	}
}

func newIndexLsCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ls [PREFIX]",
		Short: "List indexed documents",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ix, _, err := g.openConfiguredIndex(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer func() { _ = ix.Close() }()
			prefix := ""
			if len(args) == 1 {
				prefix = absIfExists(args[0])
			}
			docs, err := ix.List(prefix)
			if err != nil {
				return err
			}
			for i := range docs {
				docs[i].Path = retriever.DisplayPath(docs[i].Path)
			}
			if asJSON {
				return writeJSONList(g.stdio.Out, docs)
			}
			t := newTable(g.stdio.Out, "PATH", "KIND", "CHUNKS", "SIZE", "INDEXED")
			for _, d := range docs {
				t.row(d.Path, d.Kind, fmt.Sprint(d.Chunks), humanSize(d.Bytes), d.IndexedAt.Local().Format(time.DateTime))
			}
			return t.flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newIndexStatusCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the index's size, location and embedder",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ix, docs, err := g.openConfiguredIndex(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer func() { _ = ix.Close() }()
			st, err := ix.Status()
			if err != nil {
				return err
			}
			st.Embedder = configuredEmbedder(docs.Embedder)
			st.Roots, st.Excluded = displayPaths(st.Roots), displayPaths(st.Excluded)
			if asJSON {
				return writeJSON(g.stdio.Out, st)
			}
			printStatus(g.stdio.Out, st)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printStatus(w io.Writer, st retriever.Status) {
	fmt.Fprintf(w, "index:      %s\n", st.Dir)
	fmt.Fprintf(w, "documents:  %d (%s)\n", st.Documents, conductor.Count(st.Chunks, "chunk"))
	fmt.Fprintf(w, "disk:       %s\n", humanSize(st.DiskBytes))
	fmt.Fprintf(w, "scoring:    %s\n", st.Scoring)
	switch {
	case st.Embedder == "":
		fmt.Fprintln(w, "embedder:   none (search is BM25 only)")
	case st.Vectors == 0:
		fmt.Fprintf(w, "embedder:   %s configured, but no chunk has a vector yet (search is BM25 only until `index add` computes them)\n", st.Embedder)
	default:
		fmt.Fprintf(w, "embedder:   %s\n", st.Embedder)
	}
	if st.StoredEmbedder != "" {
		fmt.Fprintf(w, "vectors:    %d from %s\n", st.Vectors, st.StoredEmbedder)
	}
	fmt.Fprintf(w, "roots:      %s\n", orNone(strings.Join(st.Roots, ", ")))
	if len(st.Excluded) > 0 {
		fmt.Fprintf(w, "excluded:   %s (removed with `index rm`; `index add PATH` brings one back)\n", strings.Join(st.Excluded, ", "))
	}
}

func printIngestReport(w io.Writer, rep retriever.IngestReport) {
	fmt.Fprintf(w, "indexed %d, unchanged %d, removed %d, skipped %d, failed %d (%s written) in %s\n",
		rep.Indexed, rep.Unchanged, rep.Removed, rep.Skipped, rep.Failed, conductor.Count(rep.Chunks, "chunk"), rep.Duration.Round(time.Millisecond))
	if rep.Embedded > 0 {
		fmt.Fprintf(w, "embedded %s\n", conductor.Count(rep.Embedded, "chunk"))
	}
	if rep.EmbedError != "" {
		fmt.Fprintf(w, "vectors not computed (the text is indexed; the next run retries): %s\n", rep.EmbedError)
	}
	if rep.Unembedded > 0 && rep.EmbedError == "" {
		fmt.Fprintf(w, "no vector yet for %s elsewhere in the index (search finds them by text only); `toolhub index add` without PATH computes them\n", conductor.Count(rep.Unembedded, "chunk"))
	}
	const shown = 20
	for i, p := range rep.Problems {
		if i == shown {
			fmt.Fprintf(w, "… and %d more (--json lists all)\n", len(rep.Problems)-shown)
			break
		}
		verb := "skipped"
		if p.Failed {
			verb = "failed "
		}
		fmt.Fprintf(w, "  %s %s: %s\n", verb, p.Path, p.Reason)
	}
}

// ingestProgress draws a progress bar on stderr while a terminal watches;
// the second function clears it. Elsewhere (a log, a pipe) it writes
// progressLines: files indexed once the walk has counted them, then chunks
// embedded.
func (g *globals) ingestProgress() (func(retriever.Event), func()) {
	if !isTerminal(g.stdio.Err) {
		lines := &progressLines{w: g.stdio.Err}
		return func(ev retriever.Event) {
			switch {
			case ev.Kind == retriever.EventEmbedded:
				lines.report("embedding: chunks", ev.Done, ev.Total, "")
			case ev.Kind != retriever.EventDone && ev.Total > 0:
				lines.report("indexing: files", ev.Done, ev.Total, "")
			}
		}, func() {}
	}
	var bar *progressbar.ProgressBar
	progress := func(ev retriever.Event) {
		switch {
		case ev.Kind == retriever.EventScanned:
			bar = g.stageBar(ev.Total, "indexing")
		case ev.Kind == retriever.EventEmbedded && (bar == nil || ev.Done <= 256):
			_ = finishBar(bar)
			bar = g.stageBar(ev.Total, "embedding")
			_ = bar.Set(ev.Done)
		case bar != nil && ev.Total > 0:
			_ = bar.Set(ev.Done)
		}
	}
	return progress, func() { _ = finishBar(bar) }
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// displayPaths is paths with retriever.DisplayPath applied to each.
func displayPaths(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = retriever.DisplayPath(p)
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
