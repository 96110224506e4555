package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// brokenReasonWait bounds how long a failed call waits to learn why the
// connection broke, to say so in its error.
const brokenReasonWait = 200 * time.Millisecond

// Call forwards tools/call on the raw transport and returns the server's
// result unchanged, isError results included. Go errors are the hub's own:
// *ServerUnavailableError when the server is not ready, *CallTimeoutError
// when the call outlives the server's timeout, *ResultTooLargeError, the
// caller's ctx error, or a transport failure wrapped with the server's name.
// A server that uses its clients' roots takes the call on the calling
// client's own session (sessionFor). A tool that runs only as a task is
// run as one (downstream_task.go).
func (d *downstream) Call(ctx context.Context, tool string, args json.RawMessage, meta map[string]any) (json.RawMessage, error) {
	if len(args) > 0 && !json.Valid(args) {
		return nil, fmt.Errorf("server %s: call %s: arguments are not valid JSON", d.spec.Name, tool)
	}
	taskOnly := false
	if m := d.taskOnly.Load(); m != nil {
		taskOnly = (*m)[tool]
	}
	target, release, err := d.sessionFor(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return target.call(ctx, tool, args, meta, taskOnly)
}

// sessionFor picks the session a request of the client behind ctx goes
// through. A server that never asked for roots has one session for every
// client. Once it did, each client gets a session of its own, which only
// ever sees that client's roots; the shared session stays with requests no
// client made, with the client whose roots it was given (if any), and with
// clients that have no roots while it was given none. A client known by its
// roots is asked for them first, so that it has its name. A server of
// 2026-07-28 keeps nothing of a client between requests, so it has one
// session for every client however it uses roots.
func (d *downstream) sessionFor(ctx context.Context) (*downstream, func(), error) {
	if d.clients == nil || !d.roots.usesRoots() || d.speaksModern() {
		return d, func() {}, nil
	}
	c := ClientFrom(ctx)
	if l, ok := c.(RootsIdentified); ok {
		if err := l.LearnRoots(ctx); err != nil {
			return nil, nil, fmt.Errorf("server %s: %w", d.spec.Name, err)
		}
	}
	key := sessionKey(c)
	if key == "" {
		return d, func() {}, nil
	}
	claimed, mine := d.roots.claimed(key)
	if mine || (!claimed && !c.Capabilities().Roots) {
		if mine {
			d.roots.currentOwner().remember(c)
		}
		return d, func() {}, nil
	}
	return d.clients.acquire(ctx, key, c)
}

// call forwards tools/call on this session's connection, as a task when
// the tool runs only as one.
func (d *downstream) call(ctx context.Context, tool string, args json.RawMessage, meta map[string]any, taskOnly bool) (json.RawMessage, error) {
	conn, st := d.currentConn()
	if conn == nil {
		return nil, Unavailable(st)
	}
	timeout := d.callTimeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	leave := d.calls.enter(callCtx)
	defer leave()

	var result json.RawMessage
	var err error
	switch {
	case conn.era.modern:
		result, err = d.callWithInput(callCtx, conn, toolCallParams(tool, args, meta), taskOnly && offersTasks(conn))
	case runsAsTask(conn, taskOnly):
		result, err = d.callAsTask(callCtx, conn, toolCallParams(tool, args, meta), timeout)
	default:
		result, err = conn.request(callCtx, "tools/call", toolCallParams(tool, args, meta))
	}
	if err == nil {
		if f, ok := conn.raw.(flusher); ok {
			f.Flush(callCtx) // the call's progress and logs go on before its result
		}
		return result, nil
	}
	return nil, d.callError(ctx, callCtx, conn, tool, timeout, err)
}

func (d *downstream) callTimeout() time.Duration {
	if d.spec.Timeout > 0 {
		return d.spec.Timeout
	}
	return d.opts.CallTimeout
}

// toolCallRequest is the params of a tools/call as sent downstream. A
// struct, not a map: encoding/json writes it without sorting keys or
// reflecting over map entries on every call.
type toolCallRequest struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      map[string]any  `json:"_meta,omitempty"`
	// The answers to a 2026-07-28 server's InputRequiredResult, on its
	// retry (downstream_era.go).
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	RequestState   string                     `json:"requestState,omitempty"`
}

// emptyArguments is sent for a call without arguments.
var emptyArguments = json.RawMessage(`{}`)

// toolCallParams builds tools/call params; arguments pass through as raw
// JSON and _meta is sent only when given.
func toolCallParams(tool string, args json.RawMessage, meta map[string]any) *toolCallRequest {
	if len(args) == 0 {
		args = emptyArguments
	}
	return &toolCallRequest{Name: tool, Arguments: args, Meta: meta}
}

// callError classifies a failed call. Transport failures also mark the
// connection broken so the supervisor reconnects.
func (d *downstream) callError(ctx, callCtx context.Context, conn *connection, tool string, timeout time.Duration, err error) error {
	var tooLarge *ResultTooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return err
	case ctx.Err() != nil:
		return fmt.Errorf("server %s: call %s: %w", d.spec.Name, tool, ctx.Err())
	case callCtx.Err() != nil:
		return &CallTimeoutError{Tool: tool, Timeout: timeout.String()}
	case isRemoteError(err):
		return err
	case d.wantsSignIn(err):
		return d.markSignInRequired(conn, err)
	}
	reason := conn.brokenReason()
	switch {
	case reason != nil:
	case conn.child == nil:
		// A remote or in-process transport failed: reconnect.
		conn.markBroken(fmt.Errorf("call %s failed: %w", tool, err))
	default:
		// A stdio transport fails because the child's stdout ended; the
		// child watchers mark the connection broken with the exit status,
		// which is worth a short wait to report.
		reason = conn.awaitBrokenReason(brokenReasonWait)
	}
	if reason != nil {
		return fmt.Errorf("server %s: call %s: %w: %w", d.spec.Name, tool, reason, err)
	}
	return fmt.Errorf("server %s: call %s: %w", d.spec.Name, tool, err)
}

// isRemoteError reports whether err is the server's JSON-RPC error answer,
// which leaves the connection healthy.
func isRemoteError(err error) bool {
	var remote *RemoteError
	return errors.As(err, &remote)
}
