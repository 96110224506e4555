package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/bench"
)

func newBenchIdleCommand(g *globals) *cobra.Command {
	var opts bench.IdleOptions
	var asJSON, noServers bool
	cmd := &cobra.Command{
		Use:   "idle",
		Short: "Measure the resident memory of an idle toolhub serve",
		Long: `Starts "toolhub serve" over stdio, then "toolhub serve --http", each with
server-everything as its one server (or none with --no-servers), lets each
settle for --settle and reads its resident memory. On Linux that is
/proc/<pid>/smaps_rollup: Rss, of which Anonymous (heap, stacks, the
runtime) and the rest (mostly pages of the toolhub binary itself). On macOS
and the BSDs it is ps's resident size, and on Windows the working set,
without that split (shown as "-").

server-everything is looked up in .tools/node_modules/.bin above the current
directory unless --everything names it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if opts.Everything != "" || !noServers {
				path, err := everythingPath(opts.Everything, " (or pass --no-servers)")
				if err != nil {
					return err
				}
				opts.Everything = path
			}
			reps, err := bench.RunIdle(cmd.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdio.Out, reps)
			}
			printIdleReport(g.stdio.Out, reps)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Everything, "everything", "", "path of mcp-server-everything")
	f.BoolVar(&noServers, "no-servers", false, "serve a config with no servers")
	f.StringVar(&opts.Toolhub, "toolhub", "", "toolhub binary to measure (default: this one)")
	f.DurationVar(&opts.Settle, "settle", 0, "how long each toolhub runs before it is measured (default 6s)")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func printIdleReport(w io.Writer, reps []bench.IdleReport) {
	fmt.Fprintf(w, "idle toolhub serve (target < %d MiB resident):\n", targetIdleRSSMiB)
	t := newTable(w, "MODE", "RSS", "ANONYMOUS", "FILE")
	for _, r := range reps {
		t.row(r.Mode, mib(r.RSS), mib(r.Anonymous), mib(r.File))
	}
	_ = t.flush()
}
