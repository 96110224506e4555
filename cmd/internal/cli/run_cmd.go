package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/policies"
)

// stepBuffer is how many events the live view may fall behind by.
const stepBuffer = 1024

func newRunCommand(g *globals) *cobra.Command {
	var mode, policy, preference string
	var maxTurns int
	var budget float64
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "run TASK...",
		Short: "Run one orchestration episode and print its steps live",
		Long: `Runs one episode: the policy (the orchestrator model by default) decides, the
hub checks and runs each tool or model call, and every step is printed as it
happens with its model, locality, tokens, cost and wall time.

--mode research offers search, enhance_reasoning and answer over the
configured expert models; --mode tools offers the catalog's tools plus
call_expert. --policy picks orchestrator (orchestrator:hle or
orchestrator:frames for one research variant, whatever the config's),
fixed:MODEL, cheapest, strongest, retrieve-answer, or a router trained on
recorded outcomes: mf, knn or blend (see toolhub eval). Without a reachable orchestrator the run says so and uses
retrieve-answer, which returns the passages it found when no model of the
answer role is allowed. In research mode without an allowed model of the
answer role the run is refused: give a model "roles": ["answer"] in the
config. --json prints the whole run (task, steps, answer, totals). A task of
several words need not be quoted: they are joined with spaces.

Exit status: 0 answered (by the orchestrator or the fallback), 1 failed (the
run was refused or toolhub could not go on), 2 bad flags or configuration,
3 no answer within the turn limit, 4 budget exhausted, 5 deadline passed,
6 cancelled.`,
		Example: `  toolhub run "What does our travel policy say about per diems?"
  toolhub run --mode tools --policy fixed:gpt5 "Summarise open issues"`,
		Args: func(_ *cobra.Command, args []string) error {
			if strings.TrimSpace(strings.Join(args, " ")) == "" {
				return usageError(`run needs a task: toolhub run "What does our travel policy say?"`)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if mode != string(conductor.ModeResearch) && mode != string(conductor.ModeTools) {
				return usageError("--mode %q: want research or tools", mode)
			}
			if maxTurns < 0 || maxTurns > conductor.MaxTurns {
				return usageError("--max-turns %d: want 0 to %d", maxTurns, conductor.MaxTurns)
			}
			if budget < 0 {
				return usageError("--budget %g: want dollars, zero or more", budget)
			}
			prefRaw, err := preferenceFlag(preference)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			d, err := g.startDaemon(ctx)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := g.waitForServers(ctx, d.Hub()); err != nil {
				return err
			}
			if _, _, err := d.Planner().Policy(policy); err != nil {
				return asUsage(err)
			}
			live := io.Writer(g.stdio.Out)
			if asJSON {
				live = io.Discard
			}
			req := conductor.Request{RunID: conductor.NewRunID(), Task: strings.Join(args, " "), Mode: conductor.Mode(mode),
				Policy: policy, Preference: prefRaw, BudgetUSD: budget, MaxTurns: maxTurns}
			stop := printSteps(live, d.Bus(), req.RunID)
			run, err := d.RunEpisode(ctx, req)
			stop()
			if err != nil {
				return err
			}
			if asJSON {
				err = writeJSON(g.stdio.Out, run)
			} else {
				err = printOutcome(g.stdio.Out, run)
			}
			if err != nil {
				return err
			}
			return runStatusError(run)
		},
	}
	cmd.Flags().StringVar(&mode, "mode", string(conductor.ModeResearch), "research or tools")
	cmd.Flags().StringVar(&policy, "policy", "", "orchestrator[:hle|:frames], fixed:MODEL, cheapest, strongest, retrieve-answer, mf, knn or blend (default: the config's, else orchestrator)")
	cmd.Flags().IntVar(&maxTurns, "max-turns", 0, "turn limit, at most 50 (default: the config's, else 50)")
	cmd.Flags().StringVar(&preference, "preference", "", `tighten the saved preferences for this run: "local-only", "prefer-local", "any" (nothing stricter), "cheap", "fast", several at once ("local-only cheap"), or a JSON object`)
	cmd.Flags().Float64Var(&budget, "budget", 0, "spending cap for this run in US dollars (0: the saved budget)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole run as JSON")
	return cmd
}

// printSteps prints every step of the run until the returned stop is
// called; stop waits until all its steps are printed.
func printSteps(w io.Writer, bus *events.Bus, runID string) (stop func()) {
	stop, _ = bus.Follow(events.Filter{Mask: events.RunStep, Subject: runID, Buffer: stepBuffer}, func(e events.Event) {
		if s, ok := e.Data.(conductor.Step); ok {
			fmt.Fprintln(w, stepLine(s))
		}
	})
	return stop
}

// stepLine renders one step on one line.
func stepLine(s conductor.Step) string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %-2d  ", s.Turn)
	switch s.Kind {
	case conductor.StepModel:
		fmt.Fprintf(&b, "model  %s → %s (%s)", s.Alias, s.Model, s.Locality)
		if s.Purpose != "" {
			fmt.Fprintf(&b, " %s", s.Purpose)
		}
		est := ""
		if s.Estimated {
			est = "~"
		}
		cost := fmt.Sprintf("$%.6f", s.USD)
		if s.CostUnknown {
			cost = "cost unknown"
		}
		fmt.Fprintf(&b, "  %s%d→%d tok  %s  %s", est, s.TokensIn, s.TokensOut, cost, humanDuration(s.Wall))
	case conductor.StepTool:
		fmt.Fprintf(&b, "tool   %s (%s)  $%.6f  %s", s.Tool, s.Locality, s.USD, humanDuration(s.Wall))
	case conductor.StepObservation:
		fmt.Fprintf(&b, "note   %s", oneLine(s.Text, 160))
	case conductor.StepAnswer:
		fmt.Fprintf(&b, "answer %s", oneLine(s.Text, 160))
	}
	if s.Error != "" {
		fmt.Fprintf(&b, "  error: %s", errorLine(s.Error, 160))
	}
	return b.String()
}

// printOutcome prints the answer (or why there is none) and the totals.
func printOutcome(w io.Writer, run *conductor.Run) error {
	t := run.Totals
	fmt.Fprintf(w, "\n%s  %s  %s  %s  %d→%d tok  $%.6f  %s\n", run.Status, conductor.Count(t.Turns, "turn"),
		conductor.Count(t.ModelCalls, "model call"), conductor.Count(t.ToolCalls, "tool call"), t.TokensIn, t.TokensOut, t.USD, humanDuration(t.Wall))
	switch {
	case run.Status == conductor.RunAnswered && run.Forced:
		fmt.Fprintf(w, "\n(answered by the fallback policy)\n%s\n", run.Answer)
	case run.Status == conductor.RunAnswered:
		fmt.Fprintf(w, "\n%s\n", run.Answer)
	case run.Error != "":
		fmt.Fprintf(w, "\n%s\n", run.Error)
	}
	_, err := fmt.Fprintf(w, "run %s\n", run.ID)
	return err
}

// runStatusError is the exit status of a run that ended without an
// answer: its status and reason are printed already.
func runStatusError(run *conductor.Run) error {
	code := map[conductor.RunStatus]int{
		conductor.RunNoAnswer:        exitNoAnswer,
		conductor.RunBudgetExhausted: exitBudgetExhausted,
		conductor.RunDeadline:        exitDeadline,
		conductor.RunCancelled:       exitCancelled,
		conductor.RunFailed:          exitToolError,
	}[run.Status]
	if code == 0 {
		return nil
	}
	return &exitError{code: code, err: fmt.Errorf("run %s: %s", run.ID, run.Status), shown: true}
}

// preferenceFlag reads --preference, a shorthand or a JSON object, as the
// JSON the engine takes; it is checked here so a bad one is a usage error.
func preferenceFlag(v string) (json.RawMessage, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	raw := []byte(v)
	if !strings.HasPrefix(v, "{") {
		raw, _ = json.Marshal(v)
	}
	if _, err := policies.ParseOverride(raw); err != nil {
		return nil, usageError("--preference: %v", err)
	}
	return raw, nil
}
