package desktop

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/ui"
)

// Run implements ui.RunsBackend: one episode through the daemon, under the
// current preferences, its steps passed on as they are recorded; the daemon
// stores the run.
func (b *Backend) Run(ctx context.Context, req ui.RunRequest, onStep func(ui.RunStep)) (ui.RunDetail, error) {
	creq := conductor.Request{RunID: conductor.NewRunID(), Task: req.Task, Mode: conductor.Mode(req.Mode)}
	stop, _ := b.opts.Daemon.Bus().Follow(events.Filter{Mask: events.RunStep, Subject: creq.RunID}, func(e events.Event) {
		if s, ok := e.Data.(conductor.Step); ok {
			onStep(runStep(s))
		}
	})
	run, err := b.opts.Daemon.RunEpisode(ctx, creq)
	stop()
	if run == nil {
		return ui.RunDetail{}, plainError(err)
	}
	return runDetail(run), plainError(err)
}

// History implements ui.RunsBackend.
func (b *Backend) History(_ context.Context, query string, limit int) ([]ui.RunSummary, error) {
	runs, err := b.runs.list(query, limit)
	if err != nil {
		return nil, plainError(err)
	}
	out := make([]ui.RunSummary, len(runs))
	for i, r := range runs {
		out[i] = runSummary(r)
	}
	return out, nil
}

// RunDetail implements ui.RunsBackend.
func (b *Backend) RunDetail(_ context.Context, id string) (ui.RunDetail, error) {
	run, err := b.runs.get(id)
	if err != nil {
		return ui.RunDetail{}, plainError(err)
	}
	return runDetail(run), nil
}

func runSummary(r *conductor.Run) ui.RunSummary {
	return ui.RunSummary{ID: r.ID, Task: r.Task, Status: string(r.Status), Forced: r.Forced, Started: r.Started,
		USD: r.Totals.USD, Wall: r.Totals.Wall, ToolCalls: r.Totals.ToolCalls}
}

func runDetail(r *conductor.Run) ui.RunDetail {
	d := ui.RunDetail{RunSummary: runSummary(r), Mode: string(r.Mode), Answer: r.Answer, Error: r.Error}
	for _, s := range r.Steps {
		d.Steps = append(d.Steps, runStep(s))
	}
	return d
}

// runStep names a step by its tool, else its model alias or endpoint.
func runStep(s conductor.Step) ui.RunStep {
	name := s.Tool
	if name == "" {
		name = s.Endpoint
	}
	if name == "" {
		name = s.Alias
	}
	return ui.RunStep{Index: s.Index, Kind: string(s.Kind), Name: name, Purpose: s.Purpose,
		Locality: string(s.Locality), Wall: s.Wall, USD: s.USD, Error: s.Error, Refused: s.Refused,
		Text: s.Text, Input: stepInput(s), Output: stepOutput(s)}
}

// stepDetailRunes caps the input and output a step shows when expanded.
const stepDetailRunes = 4000

// stepInput is what a step sent: a tool's arguments, a model's request.
func stepInput(s conductor.Step) string {
	if len(s.Args) > 0 {
		return capRunes(indentJSON(s.Args))
	}
	if len(s.Request) > 0 {
		return capRunes(indentJSON(s.Request))
	}
	return ""
}

// stepOutput is what came back: a tool's result, a model's reply and the
// tool calls it asked for.
func stepOutput(s conductor.Step) string {
	out := s.Response
	if len(s.ToolCalls) > 0 {
		out = strings.TrimSpace(out + "\n" + indentJSON(s.ToolCalls))
	}
	return capRunes(out)
}

func indentJSON(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

func capRunes(s string) string {
	r := []rune(s)
	if len(r) <= stepDetailRunes {
		return s
	}
	return string(r[:stepDetailRunes]) + "\n… (" + strconv.Itoa(len(r)-stepDetailRunes) + " more characters)"
}
