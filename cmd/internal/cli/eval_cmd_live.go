package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/eval"
	"github.com/toolhub/toolhub/internal/fsutil"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// runLive runs the episodes not yet journaled and reports on all of them.
func (f *evalFlags) runLive(cmd *cobra.Command, g *globals, pref policies.PreferenceVector) (*eval.Report, error) {
	ctx := cmd.Context()
	if err := needFile(f.tasks, "--tasks", "a JSONL file"); err != nil {
		return nil, err
	}
	tasks, err := eval.LoadTasks(f.tasks)
	if err != nil {
		return nil, asUsage(err)
	}
	_, grader, err := f.liveConfig(g)
	if err != nil {
		return nil, err
	}
	d, err := g.startSettled(ctx)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	// Every policy is measured unrestricted, whatever the saved preferences
	// say; the daemon stores each run in the run log.
	d.Planner().SetPreferences(nil)
	runner := evalRunner{d}
	names := splitList(f.policies)
	for _, p := range names {
		if _, _, err := d.Planner().Policy(p); err != nil {
			return nil, usageError("--policy %s: %v", p, err)
		}
	}
	opts := eval.LiveOptions{Tasks: tasks, Policies: names, Mode: conductor.Mode(f.mode), Repeat: f.repeat,
		Parallel: f.parallel, Grader: grader}
	entries, err := f.runJournaled(ctx, g, runner, opts)
	if err != nil {
		return nil, err
	}
	rep := eval.LiveReport(f.tasks, entries, names, f.base, pref)
	rep.Command = commandLine(cmd)
	return rep, nil
}

// liveConfig reads the models of the config and builds the grading.
func (f *evalFlags) liveConfig(g *globals) (*config.Models, eval.Grader, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, eval.Grader{}, err
	}
	models, err := daemon.LoadModels(cfg)
	if err != nil {
		return nil, eval.Grader{}, asUsage(err)
	}
	grader, err := f.grader(models)
	return models, grader, err
}

// runJournaled runs the eval against its journal, storing every run in the
// run log and showing progress on a terminal.
func (f *evalFlags) runJournaled(ctx context.Context, g *globals, runner eval.Runner, opts eval.LiveOptions) ([]eval.JournalEntry, error) {
	path, err := f.journalPath()
	if err != nil {
		return nil, err
	}
	journal, done, err := eval.OpenJournal(path)
	if err != nil {
		return nil, err
	}
	defer journal.Close()
	opts.Journal, opts.Done = journal, done
	bar := f.newBar(g)
	opts.Progress = bar.update
	entries, err := eval.RunLive(ctx, runner, opts)
	bar.finish()
	if errors.Is(err, context.Canceled) {
		return nil, fmt.Errorf("interrupted; %s journaled in %s: run the same command to resume", conductor.Count(len(entries), "episode"), path)
	}
	return entries, err
}

// grader builds the grading, with the judge model when one is named.
func (f *evalFlags) grader(models *config.Models) (eval.Grader, error) {
	g := eval.Grader{Method: f.grade, Tolerance: f.tolerance}
	switch f.grade {
	case eval.MethodAuto, eval.MethodExact, eval.MethodNumeric, eval.MethodJudge:
	default:
		return g, usageError("--grade %q: want auto, exact, numeric or judge", f.grade)
	}
	if f.judge == "" {
		if f.grade == eval.MethodJudge {
			return g, usageError("--grade judge needs --judge MODEL")
		}
		return g, nil
	}
	for _, ep := range models.Endpoints {
		if ep.Name != f.judge {
			continue
		}
		reg, err := llm.NewModels([]llm.ModelEndpoint{ep}, llm.ModelOptions{})
		if err != nil {
			return g, asUsage(err)
		}
		m, _ := reg.Get(ep.Name)
		g.Judge = &eval.Judge{Model: m, ModelID: ep.ModelID}
		return g, nil
	}
	return g, usageError("--judge %q: no such model in the config", f.judge)
}

// journalPath is --journal, or a file under the data dir named after the
// tasks file and the settings that change what an episode means.
func (f *evalFlags) journalPath() (string, error) {
	if f.journal != "" {
		return f.journal, nil
	}
	abs, err := filepath.Abs(f.tasks)
	if err != nil {
		return "", err
	}
	dir, err := fsutil.DataPath("evals")
	if err != nil {
		return "", err
	}
	settings := fmt.Sprintf("%s\x00%s\x00%s\x00%s\x00%g", abs, f.mode, f.grade, f.judge, f.tolerance)
	sum := sha256.Sum256([]byte(settings))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create eval journal dir: %w", err)
	}
	base := filepath.Base(f.tasks)
	return filepath.Join(dir, base+"-"+hex.EncodeToString(sum[:6])+".jsonl"), nil
}

// evalBar shows episodes done, running accuracy and spend on a terminal,
// and as progressLines elsewhere (a log, a pipe).
type evalBar struct {
	bar   *progressbar.ProgressBar
	lines *progressLines // off a terminal
}

func (f *evalFlags) newBar(g *globals) *evalBar {
	if !isTerminal(g.stdio.Err) {
		return &evalBar{lines: &progressLines{w: g.stdio.Err}}
	}
	return &evalBar{bar: g.stageBar(-1, "eval")}
}

func (b *evalBar) update(p eval.Progress) {
	figures := fmt.Sprintf("acc %.3f  $%.4f", p.Accuracy, p.SpendUSD)
	if b.bar == nil {
		b.lines.report("eval: episodes", p.Done, p.Total, figures)
		return
	}
	b.bar.ChangeMax(p.Total)
	b.bar.Describe("eval  " + figures)
	_ = b.bar.Set(p.Done)
}

func (b *evalBar) finish() {
	if b.bar != nil {
		_ = b.bar.Finish()
	}
}

// evalRunner runs a live eval's episodes through the daemon's engine.
type evalRunner struct{ d *daemon.Daemon }

func (r evalRunner) Run(ctx context.Context, task conductor.Task, policy string) (*conductor.Run, error) {
	return r.d.RunEpisode(ctx, conductor.Request{Task: task.Text, Mode: task.Mode, Policy: policy,
		MaxTurns: task.MaxTurns, Expected: task.Expected})
}
