package ui

import (
	"context"
	"strings"
	"time"
)

// Run emits two steps, then (with runGate set) waits for the gate or ctx.
func (f *fakeBackend) Run(ctx context.Context, req RunRequest, onStep func(RunStep)) (RunDetail, error) {
	f.note()
	f.mu.Lock()
	f.runCtx = ctx
	gate, custom, forced, fail := f.runGate, f.runSteps, f.runForced, f.failWith
	f.mu.Unlock()
	d := RunDetail{RunSummary: RunSummary{ID: "run-" + req.Mode, Task: req.Task, Started: time.Now()}, Mode: req.Mode}
	steps := []RunStep{
		{Kind: "model", Name: "orchestrator", Locality: "local", Wall: 900 * time.Millisecond},
		{Index: 1, Kind: "tool", Name: "search_documents", Locality: "local", Wall: 40 * time.Millisecond},
	}
	if custom != nil {
		steps = custom
	}
	for _, s := range steps {
		onStep(s)
		d.Steps = append(d.Steps, s)
	}
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			d.Status = "cancelled"
			f.record(d)
			return d, ctx.Err()
		}
	}
	if fail != nil {
		d.Status = "failed"
		f.record(d)
		return d, fail
	}
	d.Status, d.Answer, d.USD, d.ToolCalls, d.Forced = "answered", "42", 0.0123, 1, forced
	f.record(d)
	return d, nil
}

func (f *fakeBackend) record(d RunDetail) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append([]RunDetail{d}, f.runs...)
}

func (f *fakeBackend) History(_ context.Context, q string, limit int) ([]RunSummary, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []RunSummary
	for _, r := range f.runs {
		if strings.Contains(r.Task, q) && len(out) < limit {
			out = append(out, r.RunSummary)
		}
	}
	return out, nil
}

func (f *fakeBackend) RunDetail(_ context.Context, id string) (RunDetail, error) {
	f.note()
	if f.detailGate != nil {
		<-f.detailGate
	}
	f.mu.Lock()
	f.details++
	defer f.mu.Unlock()
	for _, r := range f.runs {
		if r.ID == id {
			return r, nil
		}
	}
	return RunDetail{}, context.Canceled
}
