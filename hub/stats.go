package hub

import (
	"math"
	"sync"
	"time"
)

// latencyAlpha is the weight of the newest sample in the latency moving
// average.
const latencyAlpha = 0.2

// ToolStats are the measured figures of one tool. Every snapshot holding the
// tool shares the same ToolStats, so figures survive catalog rebuilds. Safe
// for concurrent use.
type ToolStats struct {
	mu       sync.Mutex
	calls    int64
	failures int64
	latency  float64 // moving average in nanoseconds
}

// StatsView is a consistent copy of a tool's figures.
type StatsView struct {
	Calls    int64
	Failures int64
	// Latency is the exponential moving average of call durations (alpha
	// 0.2); zero when the tool was never called.
	Latency time.Duration
}

// Record adds one call that took d and, when failed, counts it as a failure.
// The first call sets the latency average; each later one moves it a fifth
// of the way towards d.
func (s *ToolStats) Record(d time.Duration, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls == 0 {
		s.latency = float64(d)
	} else {
		s.latency += latencyAlpha * (float64(d) - s.latency)
	}
	s.calls++
	if failed {
		s.failures++
	}
}

// View returns the current figures.
func (s *ToolStats) View() StatsView {
	s.mu.Lock()
	defer s.mu.Unlock()
	return StatsView{
		Calls:    s.calls,
		Failures: s.failures,
		Latency:  time.Duration(math.Round(s.latency)),
	}
}
