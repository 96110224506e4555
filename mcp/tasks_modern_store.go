package mcp

import (
	"encoding/json"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// resultTypeTask marks a tools/call answered with a task handle.
const resultTypeTask mcpgo.ResultType = "task"

// modernTasks holds the 2026-07-28 tasks by id until their TTL passes.
// Safe for concurrent use.
type modernTasks struct {
	ttl time.Duration

	mu     sync.Mutex
	byID   map[string]*modernTask
	closed bool
}

func newModernTasks(ttl time.Duration) *modernTasks {
	if ttl <= 0 {
		ttl = DefaultModernTaskTTL
	}
	return &modernTasks{ttl: ttl, byID: map[string]*modernTask{}}
}

// add keeps t until the TTL passes, then cancels it if it still runs and
// forgets it. It reports false, keeping nothing, when the store is full
// or closed.
func (m *modernTasks) add(t *modernTask) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed || len(m.byID) >= maxModernTasks {
		return false
	}
	m.byID[t.id] = t
	t.expiry = time.AfterFunc(t.ttl, func() {
		t.stop()
		m.mu.Lock()
		delete(m.byID, t.id)
		m.mu.Unlock()
	})
	return true
}

// get is the task id names, nil when there is none (never created, or
// past its TTL).
func (m *modernTasks) get(id string) *modernTask {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.byID[id]
}

// closeAll cancels every task and keeps no more (the server is closing).
func (m *modernTasks) closeAll() {
	m.mu.Lock()
	all := m.byID
	m.byID, m.closed = map[string]*modernTask{}, true
	m.mu.Unlock()
	for _, t := range all {
		t.expiry.Stop()
		t.stop()
	}
}

// taskWire is a task as the extension sends it: the handle a tools/call
// returns (resultType "task") and the detailed task of tasks/get
// (resultType "complete", with the input requests, result or error its
// status calls for).
type taskWire struct {
	ResultType     mcpgo.ResultType           `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          int64                      `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          *mcpgo.JSONRPCErrorDetails `json:"error,omitempty"`
	Meta           *mcpgo.Meta                `json:"_meta,omitempty"`
}

// handle is the answer to the tools/call that created t.
func (t *modernTask) handle(server mcpgo.Implementation) taskWire {
	w := t.wire(resultTypeTask)
	w.Meta = serverMeta(server)
	return w
}

// detailed is t as tasks/get answers it: the latest step as its status
// message while it works, and the steps so far under TaskTraceMetaKey.
func (t *modernTask) detailed(server mcpgo.Implementation) taskWire {
	w := t.wire(mcpgo.ResultTypeComplete)
	latest, steps := t.trace.view()
	if w.Status == taskWorking || w.Status == taskInputRequired {
		w.StatusMessage = latest
	}
	w.Meta = serverMeta(server)
	w.Meta.SetMetaField(TaskTraceMetaKey, TaskTrace{RunID: t.runID, Steps: steps})
	return w
}

func (t *modernTask) wire(rt mcpgo.ResultType) taskWire {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := taskWire{
		ResultType:     rt,
		TaskID:         t.id,
		Status:         t.status,
		CreatedAt:      t.created.UTC().Format(time.RFC3339Nano),
		LastUpdatedAt:  t.updated.UTC().Format(time.RFC3339Nano),
		TTLMs:          t.ttl.Milliseconds(),
		PollIntervalMs: taskPollInterval.Milliseconds(),
	}
	switch t.status {
	case taskInputRequired:
		w.InputRequests = make(map[string]json.RawMessage, len(t.pending))
		for id, p := range t.pending {
			if raw, ok := inputRequestWire(p.req); ok {
				w.InputRequests[id] = raw
			}
		}
	case taskCompleted:
		w.Result = t.result
	case taskFailed:
		w.Error = t.failure
	}
	return w
}

// serverMeta names the server in a result, as every 2026-07-28 result
// should.
func serverMeta(server mcpgo.Implementation) *mcpgo.Meta {
	m := &mcpgo.Meta{}
	m.SetServerInfo(server)
	return m
}
