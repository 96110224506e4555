package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// refusal is a JSON-RPC error a 2026-07-28 client gets in place of a call's
// result: a retry naming no waiting call, or a downstream's refusal of a
// call for a client capability the client did not declare. Every other
// failure of a downstream is a result with isError set, which the client's
// model reads.
type refusal struct {
	code    int
	message string
	data    any // nil without
}

func (r *refusal) Error() string { return r.message }

// callCatalogModern is callCatalog for a 2026-07-28 client, whose call a
// 2026-07-28 downstream refuses with missing required client capability
// when the client (whose capabilities the hub declares in its stead) lacks
// one the tool needs: the client gets that error as the server sent it.
func (s *Server) callCatalogModern(ctx context.Context, name string, args json.RawMessage, opts hub.CallOptions) (*mcpgo.CallToolResult, *refusal) {
	res, err := s.cat.Call(ctx, name, args, opts)
	var remote *hub.RemoteError
	if errors.As(err, &remote) && remote.Code == mcpgo.MISSING_REQUIRED_CLIENT_CAPABILITY {
		return nil, &refusal{code: remote.Code, message: remote.Message, data: remote.Data}
	}
	return s.callOutcome(name, res, err), nil
}

// modernErrorStatus is the HTTP status 2026-07-28 gives a JSON-RPC error
// response, as mcp-go sends it.
func modernErrorStatus(code int) int {
	switch code {
	case mcpgo.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcpgo.HEADER_MISMATCH, mcpgo.MISSING_REQUIRED_CLIENT_CAPABILITY, mcpgo.UNSUPPORTED_PROTOCOL_VERSION,
		mcpgo.INVALID_REQUEST, mcpgo.INVALID_PARAMS, mcpgo.PARSE_ERROR:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// refuseToolCalls is mcp-go's tool middleware for the calls mcp-go serves
// (the short paths answer their own): it hands the transport every
// refusal a handler returns (noteRefusal), so that the client gets the
// refusal's code, not mcp-go's internal error. When tasks are served
// (2025-11-25), it also refuses a task request for a tool that declares no
// task support with method not found, as that revision says a server
// should; mcp-go would run the call at once and answer a result where the
// client waits for a task.
func (s *Server) refuseToolCalls(tasks bool) mcpserver.ToolHandlerMiddleware {
	return func(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
		return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			if tasks && req.Params.Task != nil && !modernRequest(ctx) && !isConductorTool(req.Params.Name) {
				return nil, noteRefusal(ctx, &refusal{code: mcpgo.METHOD_NOT_FOUND, message: fmt.Sprintf(
					"tool %q does not run as a task (its execution.taskSupport is not \"optional\" or \"required\"): "+
						"call it without \"task\"", req.Params.Name)})
			}
			res, err := next(ctx, req)
			return res, noteRefusal(ctx, err)
		}
	}
}
