package service

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/toolhub/toolhub/internal/supervise"
)

// Run is one run of the program Keep keeps running.
type Run interface {
	// Done is closed once the program has exited.
	Done() <-chan struct{}
	// Err says how it exited, once Done is closed: nil for exit status 0.
	Err() error
	// Stop ends the program and everything it started, and returns once
	// it is gone.
	Stop()
}

// KeepOptions shape Keep.
type KeepOptions struct {
	// Retry spaces the restarts: from 1s, doubling up to 1 minute by
	// default, without ever giving up, as systemd and launchd do.
	Retry supervise.RetryPolicy
	// Healthy is how long a run must last for its failure to count as the
	// first in a row again (default 1 minute).
	Healthy time.Duration
	// Log receives a line for every exit and restart (default: slog's).
	Log *slog.Logger
	// now is time.Now; tests replace it.
	now func() time.Time
}

func (o KeepOptions) withDefaults() KeepOptions {
	if o.Retry.BaseDelay <= 0 {
		o.Retry.BaseDelay = time.Second
	}
	if o.Retry.MaxDelay <= 0 {
		o.Retry.MaxDelay = time.Minute
	}
	if o.Healthy <= 0 {
		o.Healthy = time.Minute
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.now == nil {
		o.now = time.Now
	}
	return o
}

// Keep runs the program start starts until it exits cleanly or ctx ends,
// and starts it again after every failure (an exit status other than 0, or
// a failure to start) with a growing, jittered wait. When ctx ends the
// running program is stopped. It is the restart-on-failure a Windows
// scheduled task lacks: `toolhub service run` keeps `toolhub serve` going
// this way, where systemd and launchd restart it themselves.
func Keep(ctx context.Context, start func() (Run, error), opts KeepOptions) error {
	opts = opts.withDefaults()
	retry := supervise.NewRetry(opts.Retry)
	for ctx.Err() == nil {
		began := opts.now()
		reason := runOnce(ctx, start)
		if reason == nil || ctx.Err() != nil {
			return nil
		}
		if opts.now().Sub(began) >= opts.Healthy {
			retry.Reset()
		}
		wait := retry.Failed()
		opts.Log.Warn("toolhub exited; starting it again", "reason", reason.Error(),
			"failures_in_a_row", retry.Tries(), "in", wait.Round(time.Millisecond))
		if !supervise.Sleep(ctx, wait) {
			return nil
		}
	}
	return nil
}

// runOnce starts the program and waits for it to exit or for ctx to end
// (then stops it). It returns why the run failed, or nil for a clean exit
// or a stop.
func runOnce(ctx context.Context, start func() (Run, error)) error {
	run, err := start()
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	select {
	case <-ctx.Done():
		run.Stop()
		return nil
	case <-run.Done():
	}
	run.Stop() // reaps what the program left behind
	return run.Err()
}
