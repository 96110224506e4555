package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// sessionClient is the MCP client behind one request toolhub serves, as the
// hub sees it (hub.ClientRequester). Its requests go out through mcp-go on
// that request's own context, so that over Streamable HTTP they travel on
// the stream of the call they belong to.
type sessionClient struct {
	srv     *mcpserver.MCPServer
	session mcpserver.ClientSession
	caps    hub.ClientCapabilities
	// within derives the context a request to the client runs under: the
	// values of the client's request, ended by ctx or by that request.
	within func(ctx context.Context) (context.Context, context.CancelFunc)
	// relatedTask is the task (of 2025-11-25) the request runs as, "" for
	// none: an elicitation made for it names it in its _meta, as that
	// revision asks, so that the client can tell it from the requests of
	// its other calls. (mcp-go's sampling params carry no _meta.)
	relatedTask string
	// stream is the response of the short HTTP call the request is (nil for
	// any other): the client's elicitations travel on it, as mcp-go sends
	// those of the calls it serves.
	stream *callStream
}

var (
	_ hub.ClientRequester = (*sessionClient)(nil)
	_ hub.Sessionless     = (*sessionClient)(nil)
)

// withClient returns ctx carrying the client that made the request ctx
// belongs to, for the hub to forward a downstream's requests to.
func (s *Server) withClient(ctx context.Context) context.Context {
	return s.withTaskClient(ctx, "")
}

// withTaskClient is withClient for a call that runs as the 2025-11-25
// task taskID ("" for none): the client's elicitations name the task.
func (s *Server) withTaskClient(ctx context.Context, taskID string) context.Context {
	session := mcpserver.ClientSessionFromContext(ctx)
	if session == nil {
		return ctx
	}
	request := ctx
	c := &sessionClient{
		srv:         s.mcp,
		session:     session,
		caps:        clientCapabilities(ctx, session),
		relatedTask: taskID,
		stream:      callStreamFrom(ctx),
		within: func(ctx context.Context) (context.Context, context.CancelFunc) {
			merged, cancel := context.WithCancel(request)
			stop := context.AfterFunc(ctx, cancel)
			return merged, func() { stop(); cancel() }
		},
	}
	return hub.WithClient(ctx, c)
}

// clientCapabilities reads what the session's client declared. A client on
// protocol 2026-07-28 takes no server-initiated requests at all.
func clientCapabilities(ctx context.Context, session mcpserver.ClientSession) hub.ClientCapabilities {
	if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return hub.ClientCapabilities{Why: "protocol 2026-07-28 has no server-initiated requests"}
	}
	withInfo, ok := session.(mcpserver.SessionWithClientInfo)
	if !ok {
		return hub.ClientCapabilities{}
	}
	declared := withInfo.GetClientCapabilities()
	_, sampling := session.(mcpserver.SessionWithSampling)
	_, elicitation := session.(mcpserver.SessionWithElicitation)
	_, roots := session.(mcpserver.SessionWithRoots)
	return hub.ClientCapabilities{
		Sampling:    declared.Sampling != nil && sampling,
		Elicitation: declared.Elicitation != nil && elicitation,
		Roots:       declared.Roots != nil && roots,
	}
}

// Session is the client's session id. A 2026-07-28 request over HTTP has
// no session (its id is ""): its client is named as one that gives no
// roots, which it cannot be asked for there (noRootsClient).
func (c *sessionClient) Session() string {
	if id := c.session.SessionID(); id != "" {
		return id
	}
	return noRootsClient
}

// Sessionless reports a 2026-07-28 request over HTTP, which has no session:
// its client is the same as no other.
func (c *sessionClient) Sessionless() bool { return c.session.SessionID() == "" }

func (c *sessionClient) Capabilities() hub.ClientCapabilities { return c.caps }

func (c *sessionClient) CreateMessage(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var req mcpgo.CreateMessageRequest
	req.Method = string(mcpgo.MethodSamplingCreateMessage)
	if err := json.Unmarshal(params, &req.CreateMessageParams); err != nil {
		return nil, fmt.Errorf("sampling/createMessage: decode params: %w", err)
	}
	ctx, cancel := c.within(ctx)
	defer cancel()
	result, err := c.srv.RequestSampling(ctx, req)
	return encodeAnswer("sampling/createMessage", result, err)
}

func (c *sessionClient) Elicit(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var req mcpgo.ElicitationRequest
	req.Method = string(mcpgo.MethodElicitationCreate)
	if err := json.Unmarshal(params, &req.Params); err != nil {
		return nil, fmt.Errorf("elicitation/create: decode params: %w", err)
	}
	if c.relatedTask != "" {
		if req.Params.Meta == nil {
			req.Params.Meta = &mcpgo.Meta{}
		}
		req.Params.Meta.SetMetaField(mcpgo.RelatedTaskMetaKey, mcpgo.RelatedTaskMeta(c.relatedTask))
	}
	ctx, cancel := c.within(ctx)
	defer cancel()
	if c.stream != nil {
		return c.stream.ask(ctx, req.Method, req.Params)
	}
	result, err := c.srv.RequestElicitation(ctx, req)
	return encodeAnswer("elicitation/create", result, err)
}

func (c *sessionClient) ListRoots(ctx context.Context) (json.RawMessage, error) {
	var req mcpgo.ListRootsRequest
	req.Method = string(mcpgo.MethodListRoots)
	ctx, cancel := c.within(ctx)
	defer cancel()
	result, err := c.srv.RequestRoots(ctx, req)
	return encodeAnswer("roots/list", result, err)
}

// encodeAnswer turns the client's typed answer back into JSON.
func encodeAnswer(method string, result any, err error) (json.RawMessage, error) {
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("%s: the client did not answer: %w", method, err)
		}
		return nil, fmt.Errorf("%s: the client answered with an error: %w", method, err)
	}
	raw, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("%s: encode the client's answer: %w", method, err)
	}
	return raw, nil
}
