package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// ClientRequester is the MCP client that made the call in progress: the IDE
// or assistant connected to toolhub. A downstream server's sampling,
// elicitation and roots requests during a call are answered through it, and
// built-in providers and sampling model endpoints reach the client's own model
// through it. Parameters and results are MCP JSON, passed through as they are.
type ClientRequester interface {
	// Session identifies the client's connection; every call one client
	// makes carries the same session.
	Session() string
	// Capabilities are what the client declared it can answer.
	Capabilities() ClientCapabilities
	// CreateMessage sends sampling/createMessage to the client.
	CreateMessage(ctx context.Context, params json.RawMessage) (json.RawMessage, error)
	// Elicit sends elicitation/create to the client.
	Elicit(ctx context.Context, params json.RawMessage) (json.RawMessage, error)
	// ListRoots sends roots/list to the client.
	ListRoots(ctx context.Context) (json.RawMessage, error)
}

// ClientCapabilities are the client-side MCP capabilities toolhub forwards.
type ClientCapabilities struct {
	Sampling    bool
	Elicitation bool
	Roots       bool
	// Why, when set, explains a missing capability better than its absence
	// (a 2026-07-28 client, which takes no server-initiated requests).
	Why string
}

// The capabilities, as named in error messages.
const (
	CapabilitySampling    = "sampling"
	CapabilityElicitation = "elicitation"
	CapabilityRoots       = "roots"
)

// has reports whether the capability called name was declared.
func (c ClientCapabilities) has(name string) bool {
	switch name {
	case CapabilitySampling:
		return c.Sampling
	case CapabilityElicitation:
		return c.Elicitation
	case CapabilityRoots:
		return c.Roots
	}
	return false
}

// ErrNoClient means no MCP client is behind the work in progress (a call
// made from the command line, or by the hub itself), so nothing can be
// asked of one.
var ErrNoClient = errors.New("no MCP client is behind this call")

// ClientUnsupportedError is returned when the calling client did not declare
// the capability a request needs.
type ClientUnsupportedError struct {
	Capability string // sampling | elicitation | roots
	Why        string
}

func (e *ClientUnsupportedError) Error() string {
	msg := fmt.Sprintf("the calling client does not support %s", e.Capability)
	if e.Why != "" {
		msg += " (" + e.Why + ")"
	}
	return msg
}

type clientKey struct{}

// WithClient returns ctx carrying c as the client that made the call.
func WithClient(ctx context.Context, c ClientRequester) context.Context {
	return context.WithValue(ctx, clientKey{}, c)
}

// ClientFrom returns the client that made the call ctx belongs to, or nil.
func ClientFrom(ctx context.Context) ClientRequester {
	c, _ := ctx.Value(clientKey{}).(ClientRequester)
	return c
}

// RequireClient returns the client behind ctx when it declared capability
// (CapabilitySampling...), else ErrNoClient or a *ClientUnsupportedError.
func RequireClient(ctx context.Context, capability string) (ClientRequester, error) {
	c := ClientFrom(ctx)
	if c == nil {
		return nil, ErrNoClient
	}
	return c, checkCapability(c, capability)
}

func checkCapability(c ClientRequester, capability string) error {
	caps := c.Capabilities()
	if !caps.has(capability) {
		return &ClientUnsupportedError{Capability: capability, Why: caps.Why}
	}
	return nil
}
