package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// The Tasks extension of protocol 2026-07-28 ("io.modelcontextprotocol/tasks")
// lets a client that declares it in a request's capabilities have the
// server answer a tools/call with a task handle (resultType "task") and
// read the call's state with tasks/get, answer its input requests with
// tasks/update and end it with tasks/cancel. mcp-go v1.2.1 serves only the
// Tasks of 2025-11-25, so toolhub serves this one itself for orchestrate
// and research (tasks_modern_front.go).

// TasksExtension is the extension's id, in capabilities and _meta.
const TasksExtension = hub.TasksExtension

// The statuses of a task, as the extension names them.
const (
	taskWorking       = "working"
	taskInputRequired = "input_required"
	taskCompleted     = "completed"
	taskFailed        = "failed"
	taskCancelled     = "cancelled"
)

const (
	// DefaultModernTaskTTL is how long a task and its result are kept from
	// its creation; a task still running then is cancelled, since nobody
	// could read its result.
	DefaultModernTaskTTL = time.Hour
	// maxModernTasks caps the tasks kept at once; past it a call runs as
	// an ordinary call.
	maxModernTasks = 256
	// taskPollInterval is the interval a client is told to poll at.
	taskPollInterval = 500 * time.Millisecond
)

// modernTask is one orchestrate or research call run as a 2026-07-28 task.
type modernTask struct {
	id      string
	created time.Time
	ttl     time.Duration
	runID   string
	cancel  context.CancelFunc
	expiry  *time.Timer // forgets the task once its TTL has passed
	trace   stepTrace
	next    atomic.Uint64 // numbers the input requests asked

	mu      sync.Mutex
	status  string
	updated time.Time
	pending map[string]*pendingInput // asked of the client, not yet answered
	result  json.RawMessage          // the CallToolResult, once completed
	failure *mcpgo.JSONRPCErrorDetails
}

// ask holds requests of a downstream (or of a model served by the client)
// as input requests of the task until tasks/update answers them.
func (t *modernTask) ask(ctx context.Context, inputs []keyedInput) ([]json.RawMessage, error) {
	t.mu.Lock()
	ps := newPendingInputs(inputs, &t.next, t.pending)
	if terminal(t.status) {
		t.mu.Unlock()
		return nil, unanswered(ps[0].req, context.Canceled)
	}
	for _, p := range ps {
		t.pending[p.id] = p
	}
	t.setStatus(taskInputRequired)
	t.mu.Unlock()
	return awaitAnswers(ctx, ps, t.forget)
}

// forget drops a request the client need no longer answer.
func (t *modernTask) forget(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pending, id)
	t.settleInput()
}

// answer hands the client's responses to the requests waiting on them;
// responses to requests not waiting are ignored.
func (t *modernTask) answer(responses map[string]json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id, raw := range responses {
		if p := t.pending[id]; p != nil {
			p.answer <- raw
			delete(t.pending, id)
		}
	}
	t.settleInput()
}

// settleInput is working again once no request waits; t.mu is held.
func (t *modernTask) settleInput() {
	if t.status == taskInputRequired && len(t.pending) == 0 {
		t.setStatus(taskWorking)
	}
}

// setStatus moves a task that has not ended to status; t.mu is held.
func (t *modernTask) setStatus(status string) bool {
	if terminal(t.status) {
		return false
	}
	t.status, t.updated = status, time.Now()
	return true
}

// complete records the call's result, unless the task has ended already.
func (t *modernTask) complete(res *mcpgo.CallToolResult) {
	res.ResultType = mcpgo.ResultTypeComplete
	raw, err := json.Marshal(res)
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		t.fail(mcpgo.INTERNAL_ERROR, "encoding the result failed: "+err.Error())
		return
	}
	if t.setStatus(taskCompleted) {
		t.result = raw
	}
}

// fail ends the task with a JSON-RPC error; t.mu is held.
func (t *modernTask) fail(code int, message string) {
	if t.setStatus(taskFailed) {
		detail := mcpgo.NewJSONRPCErrorDetails(code, message, nil)
		t.failure = &detail
	}
}

// stop cancels the task: its episode ends and it reads as cancelled. A
// task that had ended already keeps its status.
func (t *modernTask) stop() {
	t.mu.Lock()
	t.setStatus(taskCancelled)
	t.mu.Unlock()
	if t.cancel != nil {
		t.cancel()
	}
}

func terminal(status string) bool {
	return status == taskCompleted || status == taskFailed || status == taskCancelled
}

// newTaskID is an unguessable task id: over HTTP a task has no session,
// so its id is all that reaches it.
func newTaskID() string {
	var buf [16]byte
	_, _ = rand.Read(buf[:])
	return "task-" + hex.EncodeToString(buf[:])
}
