package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// downstreamClientCapabilities are the client capabilities the hub declares
// to a downstream server: it can forward sampling, elicitation and roots
// requests to the calling client. Whether that client can answer is known
// only per call; when it cannot, the request gets a JSON-RPC error saying so.
// A server whose entry gives it no client's roots (NoClientRoots) is not
// told of roots at all.
func (d *downstream) downstreamClientCapabilities() mcpgo.ClientCapabilities {
	caps := mcpgo.ClientCapabilities{
		Sampling:    &mcpgo.SamplingCapability{},
		Elicitation: &mcpgo.ElicitationCapability{},
	}
	if !d.spec.NoClientRoots {
		// A client's roots/list_changed is relayed to the sessions that
		// were given its roots (client_roots.go).
		caps.Roots = &struct {
			ListChanged bool `json:"listChanged,omitempty"`
		}{ListChanged: true}
	}
	return caps
}

// serverRequestHandler answers the requests a downstream server sends to the
// hub (stdio and Streamable HTTP transports).
func (d *downstream) serverRequestHandler() transport.RequestHandler {
	return func(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
		params, err := rawParams(req.Params)
		if err != nil {
			return errorResponse(req.ID, mcpgo.INVALID_PARAMS, err.Error()), nil
		}
		result, err := d.answerServerRequest(ctx, req.Method, params)
		if err != nil {
			return errorResponse(req.ID, errorCode(err), err.Error()), nil
		}
		return transport.NewJSONRPCResultResponse(req.ID, result), nil
	}
}

// answerServerRequest forwards one request from the server to the client
// behind the call it belongs to, within the server's call timeout and no
// longer than that call.
func (d *downstream) answerServerRequest(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	if method == string(mcpgo.MethodPing) {
		return json.RawMessage(`{}`), nil
	}
	capability, err := d.askable(method)
	if err != nil {
		return nil, err
	}
	client, done, err := d.requester(ctx, method)
	if err != nil {
		return nil, err
	}
	if err := checkCapability(client, capability); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, d.callTimeout())
	defer cancel()
	if done != nil {
		stop := afterClose(done, cancel)
		defer stop()
	}
	d.log.Debug("forwarding a server request to the client", "method", method)
	return askClient(ctx, client, method, withoutRelatedTask(params))
}

// requester finds the client a server's request goes to: a client's own
// session asks its owner; the shared session gives roots to one client at
// most (rootsRequester) and asks the client of the calls in flight for
// anything else.
func (d *downstream) requester(ctx context.Context, method string) (ClientRequester, <-chan struct{}, error) {
	switch {
	case d.owner != nil:
		return d.owner.requester(ctx, &d.calls, d.spec.Name, method)
	case method == string(mcpgo.MethodListRoots) && d.clients != nil:
		return d.rootsRequester(ctx)
	}
	return d.calls.attribute(ctx, d.spec.Name)
}

// askClient sends one request to the client.
func askClient(ctx context.Context, c ClientRequester, method string, params json.RawMessage) (json.RawMessage, error) {
	switch method {
	case string(mcpgo.MethodSamplingCreateMessage):
		return c.CreateMessage(ctx, params)
	case string(mcpgo.MethodElicitationCreate):
		return c.Elicit(ctx, params)
	case string(mcpgo.MethodListRoots):
		return c.ListRoots(ctx)
	}
	return nil, &unknownMethodError{method: method}
}

// capabilityFor names the client capability a server request needs.
func capabilityFor(method string) (string, bool) {
	switch method {
	case string(mcpgo.MethodSamplingCreateMessage):
		return CapabilitySampling, true
	case string(mcpgo.MethodElicitationCreate):
		return CapabilityElicitation, true
	case string(mcpgo.MethodListRoots):
		return CapabilityRoots, true
	}
	return "", false
}

// afterClose calls fn when done closes, until stop is called.
func afterClose(done <-chan struct{}, fn func()) (stop func()) {
	quit := make(chan struct{})
	go func() {
		select {
		case <-done:
			fn()
		case <-quit:
		}
	}()
	return func() { close(quit) }
}

type unknownMethodError struct{ method string }

func (e *unknownMethodError) Error() string {
	return fmt.Sprintf("toolhub does not answer %q requests", e.method)
}

// errorCode is the JSON-RPC code a refused or failed server request gets.
func errorCode(err error) int {
	var unknown *unknownMethodError
	var unsupported *ClientUnsupportedError
	switch {
	case errors.As(err, &unknown), errors.As(err, &unsupported), errors.Is(err, ErrNoClient):
		return mcpgo.METHOD_NOT_FOUND
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return mcpgo.REQUEST_INTERRUPTED
	}
	return mcpgo.INTERNAL_ERROR
}

func errorResponse(id mcpgo.RequestId, code int, message string) *transport.JSONRPCResponse {
	return transport.NewJSONRPCErrorResponse(id, code, message, nil)
}

// rawParams re-encodes request params the transport decoded.
func rawParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return json.RawMessage(`{}`), nil
	case json.RawMessage:
		return p, nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encode request params: %w", err)
	}
	return raw, nil
}
