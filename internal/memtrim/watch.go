package memtrim

import (
	"context"
	"log/slog"
	"time"
)

// Options tune [Watch]. The zero value uses the defaults.
type Options struct {
	// Every is how often the process's CPU time is read (default 30s).
	Every time.Duration
	// Quiet is the most CPU time one Every may take for the process to
	// count as idle (default 20ms: an idle toolhub takes about 1ms).
	Quiet time.Duration
	// Busy is how much CPU time the process must have spent since the last
	// release for another to be worth it (default 250ms), so that an idle
	// process is released once, not every Every.
	Busy time.Duration
	// Log receives one debug line per release and any failure (default:
	// discard).
	Log *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Every <= 0 {
		o.Every = 30 * time.Second
	}
	if o.Quiet <= 0 {
		o.Quiet = 20 * time.Millisecond
	}
	if o.Busy <= 0 {
		o.Busy = 250 * time.Millisecond
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	return o
}

// Watch calls [Release] once when it starts (start-up is over), then
// whenever the process goes idle after work: at the end of an Every during
// which it took at most Quiet of CPU time, when it took at least Busy since
// the last release. It returns when ctx ends.
func Watch(ctx context.Context, opts Options) {
	opts = opts.withDefaults()
	release(opts.Log, "start-up")
	t := time.NewTicker(opts.Every)
	defer t.Stop()
	watch(ctx, t.C, cpuTime, func() { release(opts.Log, "idle") }, opts)
}

// release is one Release, logged as giving back what memory.
func release(log *slog.Logger, what string) {
	r, err := Release()
	if err != nil {
		log.Warn("could not return "+what+" memory", "err", err)
		return
	}
	logReleased(log, what, r)
}

// logReleased logs r, with what was counted of it: the executable's pages
// on Linux, nothing elsewhere (Windows does not say what it trimmed).
func logReleased(log *slog.Logger, what string, r Released) {
	if !r.Counted {
		log.Debug("returned " + what + " memory")
		return
	}
	log.Debug("returned "+what+" memory", "executable_kib", r.ExecKB, "mappings", r.Mappings)
}

// watch is Watch's loop over ticks, reading the process's CPU time with cpu.
func watch(ctx context.Context, ticks <-chan time.Time, cpu func() time.Duration, release func(), opts Options) {
	released := cpu()
	last := released
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
		}
		now := cpu()
		if idleAfterWork(released, last, now, opts) {
			release()
			now = cpu() // the release's own work is not work to release after
			released = now
		}
		last = now
	}
}

// idleAfterWork is the policy: given the process's CPU time at the last
// release, at the previous tick and now, release when the last interval
// was quiet and the process worked at least Busy between the last release
// and the start of that interval.
func idleAfterWork(released, last, now time.Duration, o Options) bool {
	return now-last <= o.Quiet && last-released >= o.Busy
}
