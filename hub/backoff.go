package hub

import (
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

// withDefaults fills the zero fields of p.
func (p RestartPolicy) withDefaults() RestartPolicy {
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

// failureLog remembers when one server recently failed and turns that into a
// restart delay ("full jitter": uniform between zero and the ceiling).
type failureLog struct {
	policy RestartPolicy
	times  []time.Time
	// jitter returns a value in [0, n]; replaced in tests.
	jitter func(n int64) int64
}

func newFailureLog(policy RestartPolicy) *failureLog {
	return &failureLog{
		policy: policy.withDefaults(),
		jitter: func(n int64) int64 { return rand.Int64N(n + 1) },
	}
}

// record notes a failure at now and returns how many failures fall within
// the window ending at now.
func (f *failureLog) record(now time.Time) int {
	f.times = append(f.times, now)
	cutoff := now.Add(-f.policy.Window)
	kept := f.times[:0]
	for _, t := range f.times {
		if t.After(cutoff) {
			kept = append(kept, t)
		}
	}
	f.times = kept
	return len(f.times)
}

// exhausted reports whether the recent failures reached the limit.
func (f *failureLog) exhausted() bool {
	return len(f.times) >= f.policy.MaxFailures
}

// delay is how long to wait before the next attempt, given the recent
// failures: a random duration up to BaseDelay·2^(failures-1), capped at
// MaxDelay.
func (f *failureLog) delay() time.Duration {
	return f.jitteredDelay(f.ceiling(len(f.times)))
}

func (f *failureLog) ceiling(failures int) time.Duration {
	ceiling := f.policy.BaseDelay
	for i := 1; i < failures && ceiling < f.policy.MaxDelay; i++ {
		ceiling *= 2
	}
	return min(ceiling, f.policy.MaxDelay)
}

func (f *failureLog) jitteredDelay(ceiling time.Duration) time.Duration {
	if ceiling <= 0 {
		return 0
	}
	return time.Duration(f.jitter(int64(ceiling)))
}
