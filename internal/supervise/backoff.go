package supervise

import (
	"context"
	"math/rand/v2"
	"time"
)

// RestartPolicy bounds how a failing downstream server is restarted: after
// each failure the supervisor waits a jittered, exponentially growing delay,
// and it gives up once MaxFailures failures fall within Window.
type RestartPolicy struct {
	MaxFailures int           // failures within Window before giving up (default 5)
	Window      time.Duration // how far back failures count (default 60s)
	BaseDelay   time.Duration // ceiling of the first delay (default 200ms)
	MaxDelay    time.Duration // largest ceiling (default 10s)
}

// WithDefaults fills the zero fields of p.
func (p RestartPolicy) WithDefaults() RestartPolicy {
	if p.MaxFailures <= 0 {
		p.MaxFailures = 5
	}
	if p.Window <= 0 {
		p.Window = 60 * time.Second
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 200 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 10 * time.Second
	}
	if p.MaxDelay < p.BaseDelay {
		p.MaxDelay = p.BaseDelay
	}
	return p
}

// FailureLog remembers when one server recently failed and turns that into a
// restart delay ("full jitter": uniform between zero and the ceiling).
type FailureLog struct {
	Policy RestartPolicy // with its defaults filled in
	times  []time.Time
	// jitter returns a value in [0, n]; replaced in tests.
	jitter func(n int64) int64
}

func NewFailureLog(policy RestartPolicy) *FailureLog {
	return &FailureLog{
		Policy: policy.WithDefaults(),
		jitter: func(n int64) int64 { return rand.Int64N(n + 1) },
	}
}

// Record notes a failure at now and returns how many failures fall within
// the window ending at now.
func (f *FailureLog) Record(now time.Time) int {
	f.times = append(f.times, now)
	cutoff := now.Add(-f.Policy.Window)
	kept := f.times[:0]
	for _, t := range f.times {
		if t.After(cutoff) {
			kept = append(kept, t)
		}
	}
	f.times = kept
	return len(f.times)
}

// Exhausted reports whether the recent failures reached the limit.
func (f *FailureLog) Exhausted() bool {
	return len(f.times) >= f.Policy.MaxFailures
}

// Delay is how long to wait before the next attempt, given the recent
// failures: a random duration up to BaseDelay·2^(failures-1), capped at
// MaxDelay.
func (f *FailureLog) Delay() time.Duration {
	return f.jitteredDelay(f.ceiling(len(f.times)))
}

func (f *FailureLog) ceiling(failures int) time.Duration {
	return doubled(f.Policy.BaseDelay, f.Policy.MaxDelay, failures)
}

// doubled is base doubled once for each failure after the first, capped at
// most: the ceiling of the wait after that many failures.
func doubled(base, most time.Duration, failures int) time.Duration {
	ceiling := base
	for i := 1; i < failures && ceiling < most; i++ {
		ceiling *= 2
	}
	return min(ceiling, most)
}

func (f *FailureLog) jitteredDelay(ceiling time.Duration) time.Duration {
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(f.jitter(int64(ceiling)))
}

// Sleep waits d or until ctx ends; it reports whether d passed.
func Sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
