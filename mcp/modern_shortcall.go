package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// modernInfo reads a 2026-07-28 request's _meta as mcp-go does
// (RequestProtocolInfo), each entry decoded once; ok is false for a key it
// does not know, another protocol version, or client capabilities that are
// missing or malformed (mcp-go answers those with what is wrong).
func modernInfo(meta map[string]json.RawMessage) (*mcpserver.RequestProtocolInfo, bool) {
	info := &mcpserver.RequestProtocolInfo{Modern: true}
	for key, raw := range meta {
		var err error
		switch key {
		case "progressToken":
		case mcpgo.MetaKeyProtocolVersion:
			err = json.Unmarshal(raw, &info.ProtocolVersion)
		case mcpgo.MetaKeyClientInfo:
			err = json.Unmarshal(raw, &info.ClientInfo)
		case mcpgo.MetaKeyClientCapabilities:
			err = json.Unmarshal(raw, &info.ClientCapabilities)
		case mcpgo.MetaKeyLogLevel:
			err = json.Unmarshal(raw, &info.LogLevel)
		default:
			return nil, false
		}
		if err != nil {
			return nil, false
		}
	}
	if info.ProtocolVersion != mcpgo.ProtocolVersion20260728 || info.ClientCapabilities == nil {
		return nil, false
	}
	return info, true
}

// headersMatch reports whether a 2026-07-28 request's Mcp-Method, Mcp-Name
// and Mcp-Param-* headers agree with its body, as mcp-go requires (it
// answers the request when they do not).
func (s *Server) headersMatch(r *http.Request, env envelope, name string) bool {
	if r.Header.Get(mcpgo.HeaderLastEventID) != "" {
		return false
	}
	if !callHeadersMatch(r.Header.Get, name) {
		return false
	}
	if bound := s.surface.headerBound.Load(); bound == nil || !(*bound)[name] {
		return true // no Mcp-Param-* header to check
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

// callHeadersMatch is mcp-go's ValidateStandardHeaders for a tools/call
// whose params are already decoded: Mcp-Method names the method and
// Mcp-Name, decoded as mcp-go decodes it, the tool. mcp-go would decode
// the params once more for the name.
func callHeadersMatch(header func(string) string, name string) bool {
	if header(mcpgo.HeaderMethod) != string(mcpgo.MethodToolsCall) {
		return false
	}
	raw := header(mcpgo.HeaderName)
	if raw == "" {
		return false
	}
	decoded, ok := mcpgo.DecodeHeaderValue(raw)
	return ok && decoded == name
}

// forwardModernCall forwards a round of a 2026-07-28 call, of a catalog
// tool or through call_tool, as mcp-go's handler would (forwardModern: the
// era bridge; the request it is given names the tool the client called)
// and returns the
// response line, its result stamped as mcp-go stamps every 2026-07-28
// result and its roots/list input requests in the form every client reads
// (withRootsParams).
func (s *Server) forwardModernCall(ctx context.Context, id json.RawMessage, p *shortCallParams,
	info *mcpserver.RequestProtocolInfo,
) []byte {
	ctx = mcpserver.WithRequestProtocolInfo(ctx, info)
	var req mcpgo.CallToolRequest
	req.Params.Name = p.Name
	req.Params.RequestState, req.Params.InputResponses = p.RequestState, p.InputResponses
	if p.token != nil {
		req.Params.Meta = &mcpgo.Meta{ProgressToken: p.token}
	}
	res, err := s.forwardModern(ctx, p.tool, p.args, req)
	if err != nil {
		if r := (*refusal)(nil); errors.As(err, &r) {
			if stream := callStreamFrom(ctx); stream != nil {
				stream.refused(r.code)
			}
			return rpcErrorData(id, r.code, r.message, r.data)
		}
		return rpcError(id, mcpgo.INTERNAL_ERROR, err.Error())
	}
	stampModern(res, s.serverInfo)
	return withRootsParams(resultLine(id, res))
}

// stampModern stamps res as mcp-go stamps every 2026-07-28 result: a
// resultType, and the server's identity in _meta (a downstream's was
// taken out by resultMeta). serverInfo is that identity encoded, so that
// encodeResult can write the result directly.
func stampModern(res *mcpgo.CallToolResult, serverInfo json.RawMessage) {
	if res.ResultType == "" {
		res.ResultType = mcpgo.ResultTypeComplete
	}
	if meta := res.EnsureResultMeta(); meta.ServerInfo() == nil {
		meta.SetMetaField(mcpgo.MetaKeyServerInfo, serverInfo)
	}
}
