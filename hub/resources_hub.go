package hub

import (
	"context"
	"encoding/json"
	"fmt"
)

// Resources is every ready server's resources, by server, in list order.
func (h *Hub) Resources() []Resource { return h.extras.resources() }

// ResourceTemplates is every ready server's resource templates.
func (h *Hub) ResourceTemplates() []ResourceTemplate { return h.extras.templates() }

// Prompts is every ready server's prompts under their exposed names, sorted
// by server and prompt.
func (h *Hub) Prompts() []Prompt { return h.extras.allPrompts() }

// WatchResources calls fn after every change to the resources, templates or
// prompts until stop is called. fn runs on the goroutine that made the
// change and must not block.
func (h *Hub) WatchResources(fn func()) (stop func()) { return h.extras.watch(fn) }

// ReadResource forwards resources/read to the server that owns uri and
// returns its result unchanged.
func (h *Hub) ReadResource(ctx context.Context, uri string) (json.RawMessage, error) {
	owner, candidates := h.extras.resourceOwner(uri)
	if owner == "" {
		return nil, fmt.Errorf("read resource %q: no server owns it (%s)", uri, ownerList(candidates))
	}
	return h.request(ctx, owner, "resources/read", map[string]any{"uri": uri})
}

// GetPrompt forwards prompts/get for the prompt exposed as name and returns
// the server's result unchanged: from a 2026-07-28 server, perhaps an
// InputRequiredResult, whose answers come back in a later GetPrompt's
// answers.
func (h *Hub) GetPrompt(ctx context.Context, name string, args map[string]string, answers *InputAnswers) (json.RawMessage, error) {
	p, ok := h.extras.prompt(name)
	if !ok {
		return nil, fmt.Errorf("get prompt %q: no such prompt", name)
	}
	params := map[string]any{"name": p.Original}
	if len(args) > 0 {
		params["arguments"] = args
	}
	if answers != nil {
		if answers.Responses != nil {
			params["inputResponses"] = answers.Responses
		}
		if answers.State != "" {
			params["requestState"] = answers.State
		}
	}
	return h.request(ctx, p.Server, "prompts/get", params)
}

// InputAnswers retry a request a 2026-07-28 server answered with an
// InputRequiredResult: the answers to its inputRequests by key, and its
// requestState, both passed back as they came. The server keeps no state
// between the two requests, so any of its sessions can take the retry.
type InputAnswers struct {
	Responses any
	State     string
}

// request sends one raw request to a configured server.
func (h *Hub) request(ctx context.Context, server, method string, params any) (json.RawMessage, error) {
	m, ok := h.server(server)
	if !ok || m.ds == nil {
		return nil, &ServerUnavailableError{Server: server, State: StateStopped}
	}
	return m.ds.Request(ctx, method, params)
}
