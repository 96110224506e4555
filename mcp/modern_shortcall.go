package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// modernMetaKeys are the _meta entries of a 2026-07-28 tools/call that the
// short paths understand (besides a progress token): anything else (a
// trace context, an extension's key) sends the call through mcp-go.
var modernMetaKeys = map[string]bool{
	mcpgo.MetaKeyProtocolVersion:    true,
	mcpgo.MetaKeyClientInfo:         true,
	mcpgo.MetaKeyClientCapabilities: true,
	mcpgo.MetaKeyLogLevel:           true,
}

// modernCallOf reports whether env is a 2026-07-28 tools/call that the short
// paths can serve: the first round of a call of a catalog tool on the
// current surface (no inputResponses, no requestState, no task), with
// valid client capabilities. It returns the call and what its _meta says,
// as mcp-go would have read it.
func (s *Server) modernCallOf(env envelope) (*shortCallParams, *mcpserver.RequestProtocolInfo, bool) {
	if env.Method != string(mcpgo.MethodToolsCall) || len(env.Params) == 0 {
		return nil, nil, false
	}
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      *mcpgo.Meta     `json:"_meta"`
	}
	dec := json.NewDecoder(bytes.NewReader(env.Params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil || p.Name == "" || p.Meta == nil {
		return nil, nil, false
	}
	for key := range p.Meta.AdditionalFields {
		if !modernMetaKeys[key] {
			return nil, nil, false
		}
	}
	caps := p.Meta.ClientCapabilities()
	if p.Meta.ProtocolVersion() != mcpgo.ProtocolVersion20260728 || caps == nil {
		return nil, nil, false // mcp-go answers with what is wrong
	}
	if ownTool(p.Name) || s.mcp.GetTool(p.Name) == nil {
		return nil, nil, false
	}
	info := &mcpserver.RequestProtocolInfo{
		Modern:             true,
		ProtocolVersion:    mcpgo.ProtocolVersion20260728,
		ClientInfo:         p.Meta.ClientInfo(),
		ClientCapabilities: caps,
		LogLevel:           p.Meta.LogLevel(),
	}
	return &shortCallParams{Name: p.Name, Arguments: p.Arguments, token: p.Meta.ProgressToken}, info, true
}

// headersMatch reports whether a 2026-07-28 request's Mcp-Method, Mcp-Name
// and Mcp-Param-* headers agree with its body, as mcp-go requires (it
// answers the request when they do not).
func (s *Server) headersMatch(r *http.Request, env envelope, name string) bool {
	if r.Header.Get(mcpgo.HeaderLastEventID) != "" {
		return false
	}
	if mcpgo.ValidateStandardHeaders(r.Header.Get, mcpgo.ProtocolVersion20260728, mcpgo.MethodToolsCall, env.Params) != nil {
		return false
	}
	tool := s.mcp.GetTool(name)
	if tool == nil {
		return false
	}
	lookup := func(h string) (string, bool) {
		v := r.Header.Values(h)
		if len(v) == 0 {
			return "", false
		}
		return v[0], true
	}
	return mcpgo.ValidateParamHeadersLookup(lookup, &tool.Tool, env.Params) == nil
}

// forwardModernCall forwards the first round of a 2026-07-28 call as
// mcp-go's handler would (forwardModern: the era bridge) and returns the
// response line, its result stamped as mcp-go stamps every 2026-07-28
// result and its roots/list input requests in the form every client reads
// (withRootsParams).
func (s *Server) forwardModernCall(ctx context.Context, id json.RawMessage, p *shortCallParams,
	info *mcpserver.RequestProtocolInfo,
) []byte {
	ctx = mcpserver.WithRequestProtocolInfo(ctx, info)
	var req mcpgo.CallToolRequest
	req.Params.Name = p.Name
	if p.token != nil {
		req.Params.Meta = &mcpgo.Meta{ProgressToken: p.token}
	}
	res := s.forwardModern(ctx, p.Name, p.Arguments, req)
	if res.ResultType == "" {
		res.ResultType = mcpgo.ResultTypeComplete
	}
	if meta := res.EnsureResultMeta(); meta != nil && meta.ServerInfo() == nil {
		meta.SetServerInfo(s.implementation())
	}
	return withRootsParams(resultLine(id, res))
}
