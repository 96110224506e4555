package conductor

import (
	"context"
	"fmt"
	"time"

	"github.com/toolhub/toolhub/internal/supervise"
)

// Default spacing of the tries of a model whose calls fail (protocol §10:
// "HTTP 500 or timeout: turn consumed; retry and backoff per config"): from
// 1 s, doubling up to a minute, the reference's own retry interval.
const (
	DefaultRetryDelay    = time.Second
	DefaultRetryMaxDelay = time.Minute
)

// retryPolicy is the spacing of failed calls' retries, defaults filled.
func retryPolicy(delay, most time.Duration) supervise.RetryPolicy {
	if delay <= 0 {
		delay = DefaultRetryDelay
	}
	if most <= 0 {
		most = DefaultRetryMaxDelay
	}
	return supervise.RetryPolicy{BaseDelay: delay, MaxDelay: most}.WithDefaults()
}

// Sleeper waits d or until ctx ends, and reports whether d passed.
type Sleeper func(ctx context.Context, d time.Duration) bool

// failedCalls counts, per endpoint, the calls that failed in a row, and
// the wait owed before that endpoint's next call.
type failedCalls struct {
	policy supervise.RetryPolicy
	tries  map[string]*supervise.Retry
	owed   map[string]time.Duration
}

func newFailedCalls(policy supervise.RetryPolicy) *failedCalls {
	return &failedCalls{policy: policy, tries: map[string]*supervise.Retry{}, owed: map[string]time.Duration{}}
}

// failed notes one more failed call of endpoint: its next call waits a
// jittered delay that doubles with each failure in a row, up to the
// policy's largest.
func (f *failedCalls) failed(endpoint string) {
	r := f.tries[endpoint]
	if r == nil {
		r = supervise.NewRetry(f.policy)
		f.tries[endpoint] = r
	}
	f.owed[endpoint] = r.Failed()
}

// succeeded forgets endpoint's failures.
func (f *failedCalls) succeeded(endpoint string) {
	delete(f.tries, endpoint)
	delete(f.owed, endpoint)
}

// backOff waits what is owed before calling endpoint again after failed
// calls, noting the wait in the trace. It returns false when the episode's
// context (its deadline, a cancellation) ended first: the call is not
// made.
func (ep *episode) backOff(ctx context.Context, endpoint string) bool {
	wait := ep.failures.owed[endpoint]
	if wait <= 0 {
		return true
	}
	n := ep.failures.tries[endpoint].Tries()
	ep.observe(fmt.Sprintf("model %s: %s failed in a row; waiting %s before calling it again",
		endpoint, Count(n, "call"), wait.Round(time.Millisecond)))
	delete(ep.failures.owed, endpoint)
	return ep.sleep(ctx, wait)
}
