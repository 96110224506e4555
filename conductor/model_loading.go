package conductor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/toolhub/toolhub/internal/supervise"
	"github.com/toolhub/toolhub/llm"
)

// DefaultLoadWait is how long an episode waits for a model that is still
// loading before it takes the model's answer as a failure.
const DefaultLoadWait = 3 * time.Minute

// loadRetry is the wait between tries of a loading model: from 1 s,
// doubling up to 15 s, jittered.
var loadRetry = supervise.RetryPolicy{BaseDelay: time.Second, MaxDelay: 15 * time.Second}

// completeWhenLoaded sends body to m, and while m answers that it is still
// loading, waits and sends it again, for at most the episode's load wait
// (the episode's own deadline and cancellation still apply). A model that is
// loading would otherwise fail every turn at once and end the episode with
// no answer in milliseconds. The wait is a step of the trace, so clients see
// why nothing happens.
func (ep *episode) completeWhenLoaded(ctx context.Context, m *llm.Model, role string, body []byte) (*llm.ModelReply, error) {
	retry := supervise.NewRetry(ep.loadRetry)
	var waited time.Duration
	announced := false
	for {
		reply, err := m.CompleteAs(ctx, role, body)
		loading, ok := errors.AsType[*llm.ModelLoadingError](err)
		if !ok {
			return reply, err
		}
		wait := retry.Failed()
		if loading.RetryAfter > wait {
			wait = loading.RetryAfter
		}
		if waited+wait > ep.loadWait {
			return nil, fmt.Errorf("%w; gave up after waiting %s", err, waited.Round(time.Second))
		}
		if !announced {
			ep.observe(fmt.Sprintf("model %s is still loading; waiting for it (up to %s)", loading.Model, ep.loadWait))
			announced = true
		}
		if !ep.sleep(ctx, wait) {
			return nil, err
		}
		waited += wait
	}
}
