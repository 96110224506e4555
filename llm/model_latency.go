package llm

import (
	"context"
	"sync"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// CompleteAs is Complete for a call made for role (an alias role such as
// "search" or "expert"; "" for the orchestrator's own calls): a successful
// call's duration also moves the role's latency average, which the
// orchestrator is shown per alias (protocol §6: a measured moving average
// in place of the paper's static column). A failed call says nothing about
// how long an answer takes and is left out.
func (m *Model) CompleteAs(ctx context.Context, role string, body []byte) (*ModelReply, error) {
	reply, err := m.Complete(ctx, body)
	if err == nil {
		m.roles.record(role, reply.Duration)
	}
	return reply, err
}

// roleStats are an endpoint's latency averages per role. Safe for
// concurrent use; the zero value is empty.
type roleStats struct {
	mu     sync.Mutex
	byRole map[string]*hub.ToolStats
}

func (r *roleStats) record(role string, d time.Duration) {
	r.mu.Lock()
	s := r.byRole[role]
	if s == nil {
		if r.byRole == nil {
			r.byRole = map[string]*hub.ToolStats{}
		}
		s = &hub.ToolStats{}
		r.byRole[role] = s
	}
	r.mu.Unlock()
	s.Record(d, false)
}

// view returns each measured role's average; nil when none is.
func (r *roleStats) view() map[string]time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.byRole) == 0 {
		return nil
	}
	out := make(map[string]time.Duration, len(r.byRole))
	for role, s := range r.byRole {
		out[role] = s.View().Latency
	}
	return out
}
