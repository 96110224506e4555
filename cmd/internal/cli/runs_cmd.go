package cli

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/internal/fsutil"
	"github.com/toolhub/toolhub/runlog"
)

// runLogDir is where runs are stored: runs in toolhub's data directory.
func runLogDir() (string, error) { return fsutil.DataPath("runs") }

// withRunLog opens the run log for the length of fn.
func withRunLog(fn func(*runlog.RunLog) error) error {
	dir, err := runLogDir()
	if err != nil {
		return err
	}
	log, err := runlog.OpenWithRetry(dir)
	if err != nil {
		return err
	}
	err = fn(log)
	return errors.Join(err, log.Close())
}

func newRunsCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List, show, export and replay past runs",
		Long: `Every "toolhub run" is stored in the run log under
$XDG_DATA_HOME/toolhub/runs (~/.local/share/toolhub/runs; on Windows
%LOCALAPPDATA%\toolhub\runs).`,
	}
	cmd.AddCommand(newRunsListCommand(g), newRunsShowCommand(g), newRunsExportCommand(g), newRunsReplayCommand(g))
	return cmd
}

func newRunsListCommand(g *globals) *cobra.Command {
	var limit int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "List runs, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := intsAtLeast(cmd, 0, "limit"); err != nil {
				return err
			}
			return withRunLog(func(log *runlog.RunLog) error {
				runs, err := log.List(limit)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSONList(g.stdio.Out, runs)
				}
				t := newTable(g.stdio.Out, "ID", "STATUS", "POLICY", "MODE", "TURNS", "USD", "TASK")
				for _, r := range runs {
					t.row(r.ID, string(r.Status), r.Policy, string(r.Mode), strconv.Itoa(r.Totals.Turns),
						fmt.Sprintf("%.6f", r.Totals.USD), oneLine(r.Task, 60))
				}
				return t.flush()
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 20, "at most this many runs (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the runs as JSON")
	return cmd
}

func newRunsShowCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one run with every step",
		Args:  cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return withRunLog(func(log *runlog.RunLog) error {
				run, err := log.Get(args[0])
				if errors.Is(err, runlog.ErrRunNotFound) {
					return usageError("no run %q (see toolhub runs ls)", args[0])
				}
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(g.stdio.Out, run)
				}
				fmt.Fprintf(g.stdio.Out, "%s  %s  %s  %s\ntask: %s\n\n", run.ID, run.Policy, run.Mode, run.Started.Format("2006-01-02 15:04:05"), run.Task)
				for _, s := range run.Steps {
					fmt.Fprintln(g.stdio.Out, stepLine(s))
				}
				return printOutcome(g.stdio.Out, run)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the run as JSON")
	return cmd
}
