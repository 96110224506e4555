package mcp

import (
	"context"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/conductor"
)

// TaskTraceMetaKey is the _meta key of a tasks/get result that carries the
// steps a running orchestrate or research task has taken so far.
const TaskTraceMetaKey = "toolhub/trace"

// TaskTrace is the value under TaskTraceMetaKey: the run and its steps so
// far, each as in the final trace.
type TaskTrace struct {
	RunID string      `json:"run_id"`
	Steps []TraceStep `json:"steps"`
}

// taskBoard is what toolhub keeps beside mcp-go's own task store for the
// conductor tools run as MCP tasks: which task a handler runs as, how to
// cancel its episode, and the steps taken so far. mcp-go keeps the task
// itself (status, result, TTL); the board only lives while the handler
// runs.
type taskBoard struct {
	mu sync.Mutex
	// created holds a task from its creation until its handler claims it,
	// keyed by the request that created it: mcp-go gives the handler the
	// context of that request, not the task's id. mcp-go (v1.2.1) puts a
	// RequestProtocolInfo of its own in every request's context; were it
	// ever shared, claim would find nothing and the call would run as
	// mcp-go runs it, on the request's context.
	created map[*mcpserver.RequestProtocolInfo]*taskRun
	byID    map[string]*taskRun
}

// taskRun is one conductor call running as a task.
type taskRun struct {
	id        string
	session   string
	runID     string
	cancel    context.CancelFunc // nil until the handler starts
	cancelled bool
	trace     stepTrace
}

// stepTrace is what a task's episode has done so far: every step in its
// trace form, and the message of the latest one a client is shown
// (observations are not), numbered as the progress notifications are.
// Safe for concurrent use.
type stepTrace struct {
	mu     sync.Mutex
	steps  []TraceStep
	shown  int
	latest string
}

// add records one step as it is published.
func (tr *stepTrace) add(step conductor.Step) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.steps = append(tr.steps, traceStep(step))
	if step.Kind != conductor.StepObservation {
		tr.shown++
		tr.latest = StepMessage(tr.shown, step)
	}
}

// view is the latest step's message ("" before the first) and a copy of
// the steps so far.
func (tr *stepTrace) view() (latest string, steps []TraceStep) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.latest, append([]TraceStep{}, tr.steps...)
}

func newTaskBoard() *taskBoard {
	return &taskBoard{created: map[*mcpserver.RequestProtocolInfo]*taskRun{}, byID: map[string]*taskRun{}}
}

// create records a task mcp-go has just created, before its handler runs.
func (b *taskBoard) create(req *mcpserver.RequestProtocolInfo, id, session string) {
	if req == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := &taskRun{id: id, session: session}
	b.created[req], b.byID[id] = r, r
}

// claim hands the handler running in ctx its task, once.
func (b *taskBoard) claim(ctx context.Context) (*taskRun, bool) {
	req := mcpserver.RequestProtocolInfoFromContext(ctx)
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.created[req]
	if ok {
		delete(b.created, req)
	}
	return r, ok
}

// start gives the task its episode's cancel and run id; a task cancelled
// before its handler started is cancelled at once.
func (b *taskBoard) start(r *taskRun, runID string, cancel context.CancelFunc) {
	b.mu.Lock()
	defer b.mu.Unlock()
	r.runID, r.cancel = runID, cancel
	if r.cancelled {
		cancel()
	}
}

// finish forgets a task whose handler has returned; mcp-go keeps its result.
func (b *taskBoard) finish(r *taskRun) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.byID, r.id)
}

// cancelTask ends the episode of a task cancelled with tasks/cancel.
func (b *taskBoard) cancelTask(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r, ok := b.byID[id]; ok {
		r.stop()
	}
}

// cancelSession ends the episodes of a session's tasks: once it is gone
// nobody can read their results.
func (b *taskBoard) cancelSession(session string) {
	if session == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.byID {
		if r.session == session {
			r.stop()
		}
	}
}

// stop cancels r's episode; the board's lock is held.
func (r *taskRun) stop() {
	r.cancelled = true
	if r.cancel != nil {
		r.cancel()
	}
}

// describe adds to a working task what its episode has done so far: the
// latest step as its status message and, when res is given, every step
// under TaskTraceMetaKey.
func (b *taskBoard) describe(t *mcpgo.Task, res *mcpgo.Result) {
	if t.Status != mcpgo.TaskStatusWorking {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r, ok := b.byID[t.TaskId]
	if !ok || r.runID == "" {
		return
	}
	latest, steps := r.trace.view()
	if latest != "" {
		t.StatusMessage = latest
	}
	if res == nil {
		return
	}
	if res.Meta == nil {
		res.Meta = &mcpgo.Meta{}
	}
	res.Meta.SetMetaField(TaskTraceMetaKey, TaskTrace{RunID: r.runID, Steps: steps})
}
