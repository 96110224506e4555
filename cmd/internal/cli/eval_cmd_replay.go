package cli

import (
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/toolhub/toolhub/eval"
	"github.com/toolhub/toolhub/policies"
)

// runReplay scores the policies on the replay set's test split, or on the
// validation rows held out of train, showing its stages on a terminal.
func (f *evalFlags) runReplay(cmd *cobra.Command, g *globals, pref policies.PreferenceVector) (*eval.Report, error) {
	set, err := eval.LoadReplayWith(f.replay, eval.LoadOptions{DropIncomplete: f.dropIncomplete, Split: f.split})
	if err != nil {
		return nil, asUsage(err)
	}
	weights, _ := f.weights()
	progress, done := g.replayProgress()
	rep, err := eval.Replay(set, eval.ReplayOptions{
		Policies: splitList(f.policies), CostWeights: weights, Latency: f.latencyWeight,
		KNN: policies.KNNOptions{K: f.neighbours}, LogReg: policies.LogRegOptions{L2: f.l2}, Seed: f.seed, Base: f.base, Preference: pref,
		Parallel: f.parallel, Progress: progress,
	})
	done()
	if err != nil {
		return nil, asUsage(err)
	}
	rep.Command = commandLine(cmd)
	return rep, nil
}

// replayProgress draws the replay's stage and its count on stderr while a
// terminal watches; the second function clears it. Elsewhere (a log, a
// pipe) it writes progressLines.
func (g *globals) replayProgress() (func(eval.ReplayProgress), func()) {
	if !isTerminal(g.stdio.Err) {
		lines := &progressLines{w: g.stdio.Err}
		return func(p eval.ReplayProgress) { lines.report("replay: "+p.Stage, p.Done, p.Total, "") }, func() {}
	}
	var bar *progressbar.ProgressBar
	stage := ""
	progress := func(p eval.ReplayProgress) {
		if p.Stage != stage || bar == nil {
			_ = finishBar(bar)
			stage = p.Stage
			bar = g.stageBar(p.Total, "replay: "+p.Stage)
		}
		_ = bar.Set(p.Done)
		if p.Detail != "" {
			bar.Describe("replay: " + p.Stage + " (" + p.Detail + " done)")
		}
	}
	return progress, func() { _ = finishBar(bar) }
}

// commandLine renders the command as run, with every flag that was set, so
// a report says how to reproduce it.
func commandLine(cmd *cobra.Command) string {
	parts := []string{cmd.CommandPath()}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		if fl.Name == "json" || fl.Name == "html" {
			return
		}
		parts = append(parts, "--"+fl.Name+"="+shellQuote(fl.Value.String()))
	})
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?!;&|<>()") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
