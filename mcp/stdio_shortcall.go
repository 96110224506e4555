package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// shortCallParams are the params of a tools/call the short paths take: a
// name, arguments, and a _meta with at most a progress token or, from a
// client of 2026-07-28, what modernInfo reads, with that client's answers
// when it retries a call that asked it for input. Anything else (a task,
// another _meta key) goes through mcp-go's server.
type shortCallParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Meta      json.RawMessage `json:"_meta"`
	// RequestState and InputResponses make a 2026-07-28 client's retry of a
	// call that asked it for input; an older client's call has neither.
	RequestState   string               `json:"requestState"`
	InputResponses mcpgo.InputResponses `json:"inputResponses"`
	token          mcpgo.ProgressToken
	// tool and args are the catalog tool called and its arguments: Name and
	// Arguments, or for a 2026-07-28 client's call_tool those it names.
	tool string
	args json.RawMessage
}

// shortCallOf reports whether env is a tools/call of a catalog tool on the
// current surface, or a 2026-07-28 client's call_tool naming one, that can
// skip mcp-go's request handling: decoding the request into typed values,
// its hooks, and encoding the result again. (That also gives a refusal of
// the call its own JSON-RPC error code, where mcp-go's tool handlers have
// only -32603.)
// info is what a 2026-07-28 call's _meta says, as mcp-go would have read
// it (nil for an older client's call, which may also name a tool of a
// server that is down, answered with its state). The call then goes to
// forward, or forwardModern, as mcp-go would send it there.
func (s *Server) shortCallOf(env envelope) (*shortCallParams, *mcpserver.RequestProtocolInfo, bool) {
	if env.Method != string(mcpgo.MethodToolsCall) || len(env.Params) == 0 {
		return nil, nil, false
	}
	var p shortCallParams
	dec := json.NewDecoder(bytes.NewReader(env.Params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || p.Name == "" {
		return nil, nil, false
	}
	info, ok := s.readCallMeta(&p)
	if !ok || (info == nil && p.retry()) {
		return nil, nil, false
	}
	p.tool, p.args = p.Name, p.Arguments
	if p.Name == CallToolName && info != nil && s.mcp.GetTool(CallToolName) != nil {
		if !p.unwrapCallTool() {
			return nil, nil, false
		}
		return &p, info, true
	}
	if ownTool(p.Name) || (s.mcp.GetTool(p.Name) == nil && (info != nil || !ofDownServer(s.cat, p.Name))) {
		return nil, nil, false
	}
	return &p, info, true
}

// unwrapCallTool reads the tool a call_tool call names, and its arguments,
// into p.tool and p.args, as handleCallTool does. It reports false, leaving
// the call to mcp-go, when there is no tool name (handleCallTool answers
// how to call it) or the arguments are not an object (call_tool's schema
// asks for one).
func (p *shortCallParams) unwrapCallTool() bool {
	var args callToolArgs
	if json.Unmarshal(p.Arguments, &args) != nil || args.Name == "" {
		return false
	}
	if a := bytes.TrimSpace(args.Arguments); len(a) > 0 && a[0] != '{' && !bytes.Equal(a, []byte("null")) {
		return false
	}
	p.tool, p.args = args.Name, args.Arguments
	return true
}

// retry reports whether p carries a retry's fields.
func (p *shortCallParams) retry() bool { return p.RequestState != "" || p.InputResponses != nil }

// readCallMeta reads p's _meta: its progress token into p.token, and what
// a 2026-07-28 client's says (nil for an older client's, which has at
// most a progress token). ok is false for a _meta the short path leaves to
// mcp-go. A 2026-07-28 client sends the same _meta with every call that
// asks for no progress, so what such a _meta says is remembered by its
// bytes (metas).
func (s *Server) readCallMeta(p *shortCallParams) (*mcpserver.RequestProtocolInfo, bool) {
	if len(p.Meta) == 0 {
		return nil, true
	}
	if info, ok := s.metas.get(p.Meta); ok {
		return info, true
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(p.Meta, &meta) != nil {
		return nil, false
	}
	raw, hasToken := meta["progressToken"]
	if hasToken && json.Unmarshal(raw, &p.token) != nil {
		return nil, false
	}
	if len(meta) == 0 || (len(meta) == 1 && hasToken) {
		return nil, true
	}
	info, ok := modernInfo(meta)
	if ok && !hasToken {
		s.metas.put(p.Meta, info)
	}
	return info, ok
}

// trackShortCall makes the context of call id and registers its cancel
// before the call is handed to a worker, so a notifications/cancelled read
// right after the request always finds it (cancelShortCall).
func (c *stdioConn) trackShortCall(ctx context.Context, id json.RawMessage) (context.Context, context.CancelCauseFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	c.calls.Store(string(id), cancel)
	return ctx, cancel
}

// serveShortCall forwards the call and writes its result; info is what a
// 2026-07-28 call's _meta says (nil for an older client's call). The
// client's notifications/cancelled for id cancels ctx, made by
// trackShortCall.
func (c *stdioConn) serveShortCall(ctx context.Context, cancel context.CancelCauseFunc, id json.RawMessage,
	p *shortCallParams, info *mcpserver.RequestProtocolInfo,
) {
	defer func() {
		c.calls.Delete(string(id))
		cancel(nil)
		if r := recover(); r != nil {
			c.s.log.Error("stdio tool call panicked", "tool", p.tool, "panic", r)
			c.writeError(id, mcpgo.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r))
		}
	}()
	var line []byte
	if info != nil {
		line = c.s.forwardModernCall(ctx, id, p, info)
	} else {
		line = resultLine(id, c.s.forward(ctx, p.tool, p.args, p.token))
	}
	if errors.Is(context.Cause(ctx), errCancelledByClient) {
		return // a cancelled request gets no response
	}
	c.writeLine(line)
}

// resultLine is the JSON-RPC response that answers request id with res, or
// an internal error when res cannot be encoded.
func resultLine(id json.RawMessage, res *mcpgo.CallToolResult) []byte {
	body, err := encodeResult(res)
	if err != nil {
		return rpcError(id, mcpgo.INTERNAL_ERROR, "encode the tool result: "+err.Error())
	}
	line := make([]byte, 0, len(body)+len(id)+40)
	line = append(line, `{"jsonrpc":"2.0","id":`...)
	line = append(line, id...)
	line = append(line, `,"result":`...)
	line = append(line, body...)
	line = append(line, '}')
	return line
}

// cancelShortCall cancels the short-path call a notifications/cancelled
// names, and reports whether there was one.
func (c *stdioConn) cancelShortCall(params json.RawMessage) bool {
	id, ok := cancelledRequest(params)
	if !ok {
		return false
	}
	cancel, ok := c.calls.Load(id)
	if ok {
		cancel.(context.CancelCauseFunc)(errCancelledByClient)
	}
	return ok
}

// cancelledRequest is the raw id of the request a notifications/cancelled
// names, as the short paths key their calls; ok is false when it names
// none.
func cancelledRequest(params json.RawMessage) (string, bool) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return "", false
	}
	return string(p.RequestID), true
}

var errCancelledByClient = errors.New("the client cancelled the request")
