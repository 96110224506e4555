package eval

import "sync"

// ReplayProgress is how far a replay has come. A replay works in three
// stages, in this order: "training routers" (one unit a router), "scoring
// policies" (one a policy and cost weight) and "choosing operating points"
// (one a router and fold of the train split). Detail names the router the
// last unit was for, where there is one.
type ReplayProgress struct {
	Stage  string
	Detail string
	Done   int
	Total  int
}

// The stages of a replay, as ReplayProgress names them.
const (
	StageTraining  = "training routers"
	StageScoring   = "scoring policies"
	StageOperating = "choosing operating points"
)

// progress reports a replay's steps to ReplayOptions.Progress, one call at
// a time, whichever goroutine finishes a step. The zero value and a nil
// *progress report nothing.
type progress struct {
	mu    sync.Mutex
	fn    func(ReplayProgress)
	stage string
	done  int
	total int
}

func newProgress(fn func(ReplayProgress)) *progress { return &progress{fn: fn} }

// start begins a stage of total units.
func (p *progress) start(stage string, total int) {
	if p == nil || p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stage, p.done, p.total = stage, 0, total
	p.fn(ReplayProgress{Stage: stage, Total: total})
}

// step counts one unit of the current stage done, for detail.
func (p *progress) step(detail string) {
	if p == nil || p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.fn(ReplayProgress{Stage: p.stage, Detail: detail, Done: p.done, Total: p.total})
}
