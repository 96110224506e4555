package supervise

import (
	"math/rand/v2"
	"time"
)

// RetryPolicy bounds how a server that cannot be reached is retried: a
// jittered delay that doubles after each failed try, from BaseDelay up to
// MaxDelay, without ever giving up.
type RetryPolicy struct {
	BaseDelay time.Duration // the first delay (default 1s)
	MaxDelay  time.Duration // the largest delay (default 5m)
}

// WithDefaults fills the zero fields of p.
func (p RetryPolicy) WithDefaults() RetryPolicy {
	if p.BaseDelay <= 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 5 * time.Minute
	}
	if p.MaxDelay < p.BaseDelay {
		p.MaxDelay = p.BaseDelay
	}
	return p
}

// Retry counts the failed tries in a row of one server and turns them into
// the wait before the next try ("equal jitter": uniform between half the
// ceiling and the ceiling, so a try is never immediate).
type Retry struct {
	Policy RetryPolicy // with its defaults filled in
	tries  int
	// jitter returns a value in [0, n]; replaced in tests.
	jitter func(n int64) int64
}

// NewRetry returns a Retry with no failed tries.
func NewRetry(policy RetryPolicy) *Retry {
	return &Retry{
		Policy: policy.WithDefaults(),
		jitter: func(n int64) int64 { return rand.Int64N(n + 1) },
	}
}

// Failed notes one more failed try and returns how long to wait before the
// next one.
func (r *Retry) Failed() time.Duration {
	r.tries++
	ceiling := doubled(r.Policy.BaseDelay, r.Policy.MaxDelay, r.tries)
	half := ceiling / 2
	return half + time.Duration(r.jitter(int64(ceiling-half)))
}

// Tries is the number of failed tries in a row.
func (r *Retry) Tries() int { return r.tries }

// Reset forgets the failed tries: the server was reached.
func (r *Retry) Reset() { r.tries = 0 }
