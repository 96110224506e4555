package memtrim

import (
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestIdleAfterWork(t *testing.T) {
	o := Options{}.withDefaults()
	for _, tc := range []struct {
		name                string
		released, last, now time.Duration
		want                bool
	}{
		{"quiet after work", 0, 400 * ms, 405 * ms, true},
		{"quiet right at the limits", 0, o.Busy, o.Busy + o.Quiet, true},
		{"still working", 0, 400 * ms, 600 * ms, false},
		{"quiet, but too little work since the last release", 100 * ms, 300 * ms, 301 * ms, false},
		{"quiet and nothing done since the last release", 500 * ms, 500 * ms, 500 * ms, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := idleAfterWork(tc.released, tc.last, tc.now, o); got != tc.want {
				t.Fatalf("idleAfterWork(%v, %v, %v) = %v, want %v", tc.released, tc.last, tc.now, got, tc.want)
			}
		})
	}
}

// TestWatchReleasesOncePerIdleSpell drives the loop with ticks and a CPU
// clock it controls: the process works, goes quiet (one release), stays
// quiet (none), works and goes quiet again (a second release).
func TestWatchReleasesOncePerIdleSpell(t *testing.T) {
	steps := []struct {
		cpu         time.Duration // the process's CPU time at the tick
		wantRelease bool
	}{
		{300 * ms, false}, // working
		{301 * ms, true},  // quiet after work
		{307 * ms, false}, // quiet: the release (5ms) was the last work
		{308 * ms, false},
		{900 * ms, false}, // working again
		{905 * ms, true},
		{905 * ms, false},
	}
	// What the loop reads, in order: the start, each tick and, after a
	// release, the time the release took.
	reads := []time.Duration{0}
	var want []time.Duration
	for _, s := range steps {
		reads = append(reads, s.cpu)
		if s.wantRelease {
			reads = append(reads, s.cpu+5*ms)
			want = append(want, s.cpu)
		}
	}
	reads = append(reads, 905*ms) // the tick that shows the last step is done
	var last time.Duration
	var released []time.Duration
	cpu := func() time.Duration { // only the loop calls cpu and release
		last, reads = reads[0], reads[1:]
		return last
	}
	ticks := make(chan time.Time)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		watch(ctx, ticks, cpu, func() { released = append(released, last) }, Options{}.withDefaults())
	}()
	for range len(steps) + 1 {
		ticks <- time.Time{}
	}
	cancel()
	<-done
	if !slices.Equal(released, want) {
		t.Fatalf("released at CPU times %v, want %v", released, want)
	}
}

func TestWatchEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		Watch(ctx, Options{Every: time.Hour})
	}()
	cancel()
	<-done
}

func TestLogReleased(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Released
		want string
	}{
		{"counted", Released{ExecKB: 2048, Mappings: 3, Counted: true}, "level=DEBUG msg=\"returned start-up memory\" executable_kib=2048 mappings=3\n"},
		{"not counted", Released{}, "level=DEBUG msg=\"returned start-up memory\"\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf strings.Builder
			log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{
				Level: slog.LevelDebug,
				ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
					if a.Key == slog.TimeKey {
						return slog.Attr{}
					}
					return a
				},
			}))
			logReleased(log, "start-up", tc.r)
			if buf.String() != tc.want {
				t.Fatalf("logged %q, want %q", buf.String(), tc.want)
			}
		})
	}
}
