package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/bench"
	"github.com/toolhub/toolhub/conductor"
)

// targetPerTurnMicros is the hub's own budget per episode turn.
const targetPerTurnMicros = 1000

func newBenchEpisodeCommand(g *globals) *cobra.Command {
	var opts bench.EpisodeOptions
	var mode string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "episode",
		Short: "Measure the hub's own time and allocations per episode turn",
		Long: `Runs whole episodes against a zero-latency model (an in-memory
http.RoundTripper answering from canned completions, no network) and
in-process MCP tools, so what is measured is the hub itself: prompt rendering,
request encoding, the HTTP client, reply parsing, the guard, accounting and
the MCP round trip. A research turn is one orchestrator call, one query-writer
call and one search_documents call; a tool-mode turn is one orchestrator call
and one kv__get call. Target: under 1 ms per turn.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if mode != string(conductor.ModeResearch) && mode != string(conductor.ModeTools) {
				return usageError("--mode %q: want research or tools", mode)
			}
			if err := intsAtLeast(cmd, 1, "episodes", "turns"); err != nil {
				return err
			}
			if err := intAtMost(cmd, conductor.MaxTurns, "turns"); err != nil {
				return err
			}
			opts.Mode = conductor.Mode(mode)
			opts.Logger = g.logger()
			rep, err := bench.RunEpisode(cmd.Context(), opts)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(g.stdio.Out, rep)
			}
			printEpisodeReport(g.stdio.Out, rep)
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Episodes, "episodes", 40, "measured episodes")
	f.IntVar(&opts.Turns, "turns", 50, "turns per episode (at most 50)")
	f.StringVar(&mode, "mode", string(conductor.ModeResearch), "research or tools")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

func printEpisodeReport(w io.Writer, r *bench.EpisodeReport) {
	verdict := "within"
	if r.PerTurn.Microseconds() >= targetPerTurnMicros {
		verdict = "OVER"
	}
	fmt.Fprintf(w, "mode %s: %s, %s, %s, %s\n", r.Mode, conductor.Count(r.Episodes, "episode"), conductor.Count(r.Turns, "turn"),
		conductor.Count(r.ModelCalls, "model call"), conductor.Count(r.ToolCalls, "tool call"))
	fmt.Fprintf(w, "per turn     %s (%s the %dµs target)\n", humanDuration(r.PerTurn), verdict, targetPerTurnMicros)
	fmt.Fprintf(w, "allocations  %.0f per turn, %.1f KiB per turn\n", r.AllocsPerTurn, r.BytesPerTurn/1024)
	fmt.Fprintf(w, "episode      p50 %s  p90 %s  max %s\n", humanDuration(r.Episode.P50), humanDuration(r.Episode.P90), humanDuration(r.Episode.Max))
}
