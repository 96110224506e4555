package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/bench"
	"github.com/toolhub/toolhub/conductor"
)

func newBenchCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure toolhub's own speed and quality",
		Long: `Benchmarks that build the real components in process and drive them with real
work. Each prints a human summary, or JSON with --json.`,
	}
	cmd.AddCommand(newBenchCatalogCommand(g), newBenchProxyCommand(g), newBenchIdleCommand(g), newBenchRetrievalCommand(g),
		newBenchEpisodeCommand(g))
	return cmd
}

func newBenchCatalogCommand(g *globals) *cobra.Command {
	var opts bench.CatalogOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "catalog",
		Short: "Time building, listing and looking up a large tool catalog",
		Long: `Starts a hub over --servers in-process MCP servers with --tools tools each
(100 × 50 by default), waits until every tool is in the catalog, then times a
full listing of the catalog and name lookups (p50/p90/p99).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := intsAtLeast(cmd, 1, "servers", "tools"); err != nil {
				return err
			}
			rep, err := bench.RunCatalog(cmd.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdio.Out, rep)
			}
			w := g.stdio.Out
			fmt.Fprintf(w, "catalog: %s, %s, built in %s\n", conductor.Count(rep.Servers, "server"), conductor.Count(rep.Tools, "tool"), rep.Build.Round(1e6))
			fmt.Fprintf(w, "listing all tools: p50 %s  p99 %s  (%d KiB of JSON, %d runs)\n",
				humanDuration(rep.Listing.P50), humanDuration(rep.Listing.P99), rep.ListingBytes/1024, rep.Listing.N)
			fmt.Fprintf(w, "name lookup:       p50 %s  p99 %s  (%d lookups)\n",
				rep.Lookup.P50, rep.Lookup.P99, rep.Lookup.N)
			fmt.Fprintf(w, "closest names:     p50 %s  p99 %s  (%d unknown names)\n",
				humanDuration(rep.Suggest.P50), humanDuration(rep.Suggest.P99), rep.Suggest.N)
			return nil
		},
	}
	cmd.Flags().IntVar(&opts.Servers, "servers", 100, "number of in-process servers")
	cmd.Flags().IntVar(&opts.ToolsPerServer, "tools", 50, "tools per server")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
