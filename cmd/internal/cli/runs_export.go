package cli

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/runlog"
)

func newRunsExportCommand(g *globals) *cobra.Command {
	var limit int
	var jsonl, turns bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export runs as JSONL trajectories for RL training",
		Long: `Prints one JSON object per line per run, newest first: what the orchestrator
model saw and said, in the chat-messages-with-tool-calls shape RL trainers read
(veRL's "messages" and "tools"), with the paper's reward components: calls per
tool or alias, outcome (when the expected answer is known), -cost in USD and
-latency in seconds.

"messages" and "tools" come from the recorded request and reply bodies: the
last orchestrator request exactly as sent (system prompt, offered tools, the
task with its preference sentence, the history as it was sent), then the
model's reply message as received. In tool mode that is the whole
conversation. In research mode every turn is a fresh prompt, so that is the
final turn; --turns prints one line per orchestrator turn instead, each its
request and reply, with "turn" set.

"source" says what a line was built from: "bodies", or "trace" for a run
recorded before bodies were kept (or one that never asked the orchestrator),
rebuilt from its steps; such a line lacks the system prompt and tools.`,
		Example: `  toolhub runs export --jsonl > runs.jsonl
  toolhub runs export --turns --limit 10 | jq -c '{id, turn, n: (.messages | length)}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !jsonl {
				return usageError("only --jsonl is supported")
			}
			if err := intsAtLeast(cmd, 0, "limit"); err != nil {
				return err
			}
			return withRunLog(func(log *runlog.RunLog) error {
				runs, err := log.List(limit)
				if err != nil {
					return err
				}
				enc := json.NewEncoder(g.stdio.Out)
				enc.SetEscapeHTML(false)
				bad := 0
				for _, r := range runs {
					run, err := log.Get(r.ID) // with its bodies
					if err != nil {           // one damaged run does not stop the rest
						fmt.Fprintf(g.stdio.Err, "toolhub: run %s left out: %v\n", r.ID, err)
						bad++
						continue
					}
					lines := []runlog.Trajectory{runlog.ExportTrajectory(run)}
					if turns {
						lines = runlog.ExportTurns(run)
					}
					for _, line := range lines {
						if err := enc.Encode(line); err != nil {
							return err
						}
					}
				}
				if bad > 0 {
					return fmt.Errorf("%d of %s could not be exported", bad, conductor.Count(len(runs), "run"))
				}
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, "at most this many runs, newest first (0: all)")
	cmd.Flags().BoolVar(&jsonl, "jsonl", true, "one trajectory per line: the only format, named for scripts that say so")
	cmd.Flags().BoolVar(&turns, "turns", false, "one line per orchestrator turn instead of one per run")
	return cmd
}
