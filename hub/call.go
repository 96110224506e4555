package hub

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// CallOptions carry what a caller adds to one tool call.
type CallOptions struct {
	// Meta is sent as the request's _meta (a progress token, for instance).
	Meta map[string]any
}

// CallResult is a downstream tools/call result, returned unchanged.
type CallResult struct {
	Raw      json.RawMessage // the result object exactly as the server sent it
	IsError  bool            // the tool itself reported a failure
	Tool     *Tool
	Duration time.Duration
}

// Call validates args against the tool's input schema and forwards the call to
// the server that owns the tool. A tool that reports an error is not a Go
// error: it comes back with IsError set. Go errors are the hub's own:
// *UnknownToolError, *InvalidArgumentsError, *ServerUnavailableError,
// *CallTimeoutError, or a transport failure.
func (h *Hub) Call(ctx context.Context, name string, args json.RawMessage, opts CallOptions) (*CallResult, error) {
	snap := h.catalog.Snapshot()
	tool, ok := snap.Lookup(name)
	if !ok {
		if st, down := h.DownServer(name); down {
			return nil, Unavailable(st)
		}
		return nil, &UnknownToolError{Name: name, Suggestions: snap.Suggest(name, 3)}
	}
	if err := tool.ValidateArguments(args); err != nil {
		return nil, err
	}
	m, ok := h.server(tool.Server)
	if !ok || m.ds == nil {
		return nil, &ServerUnavailableError{Server: tool.Server, State: StateStopped}
	}
	// The server's call timeout is applied by the downstream, which reports
	// it under the server's own tool name; the caller knows the tool by
	// its exposed name.
	start := time.Now()
	raw, err := m.ds.Call(ctx, tool.RawTool.Name, args, opts.Meta)
	elapsed := time.Since(start)
	if err != nil {
		tool.Stats.Record(elapsed, true)
		if timeout, ok := errors.AsType[*CallTimeoutError](err); ok {
			return nil, &CallTimeoutError{Tool: name, Timeout: timeout.Timeout}
		}
		return nil, err
	}
	isError := resultIsError(raw)
	tool.Stats.Record(elapsed, isError)
	return &CallResult{Raw: raw, IsError: isError, Tool: tool, Duration: elapsed}, nil
}

// resultIsError reads a result's isError; most results have none, which a
// scan finds without decoding a result that may be megabytes long.
func resultIsError(raw json.RawMessage) bool {
	if !bytes.Contains(raw, []byte(`"isError"`)) {
		return false
	}
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.IsError
}

// WaitSettled blocks until every server is ready, has failed or was tried
// once and is retrying, or ctx ends.
func (h *Hub) WaitSettled(ctx context.Context) error {
	for {
		ch := h.changes()
		if h.settled() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitTool blocks until the named tool is in the catalog and its server takes
// calls, every server has settled, or ctx ends; it reports whether the tool
// is there.
func (h *Hub) WaitTool(ctx context.Context, name string) (bool, error) {
	for {
		ch := h.changes()
		// Settled is read before the catalog: a server that becomes ready
		// between the two reads has its tools in the catalog by then.
		settled := h.settled()
		if tool, ok := h.catalog.Snapshot().Lookup(name); ok && h.serverReady(tool.Server) {
			return true, nil
		}
		if settled {
			return false, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

func (h *Hub) settled() bool {
	for _, st := range h.Servers() {
		switch st.State {
		case StateReady, StateFailed, StateStopped, StateDisabled, StateLocalOnly, StateInvalid, StateRetrying, StateNeedsSignIn:
		default:
			return false
		}
	}
	return true
}

func (h *Hub) serverReady(name string) bool {
	m, ok := h.server(name)
	return ok && m.ds != nil && m.ds.Status().State == StateReady
}

// DownServer finds the server a prefixed tool name (server__tool) belongs
// to, when that server takes no calls: a tool of a server that is down is
// not in the catalog, but its caller should learn why rather than that the
// tool does not exist.
func (h *Hub) DownServer(name string) (ServerStatus, bool) {
	server, _, ok := strings.Cut(name, nameSeparator)
	if !ok || server == "" {
		return ServerStatus{}, false
	}
	for _, st := range h.Servers() {
		if st.Name == server {
			return st, st.State != StateReady
		}
	}
	return ServerStatus{}, false
}

// AnyServerDown reports whether some server takes no calls now, as
// DownServer would say of one of its tools. It reads states only, without
// building statuses, so that a caller can ask it on every request before
// looking for the tool's server.
func (h *Hub) AnyServerDown() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, name := range h.order {
		m := h.servers[name]
		if m.ds == nil || m.disabled || m.ds.state() != StateReady {
			return true
		}
	}
	return false
}

// state is the server's state as Status reports it.
func (d *downstream) state() ServerState {
	d.mu.Lock()
	st, running := d.status.State, d.running
	d.mu.Unlock()
	if !running && d.stopRequested() {
		return StateStopped
	}
	return st
}
