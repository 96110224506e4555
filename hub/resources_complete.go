package hub

import (
	"context"
	"encoding/json"
	"fmt"
)

// CompletionRef names what completion/complete completes: a prompt under
// its exposed name, or a resource URI or URI template.
type CompletionRef struct {
	Prompt string
	URI    string
}

// Complete forwards completion/complete to the server owning ref and
// returns its result unchanged. argument and completionContext are the
// request's own
// JSON. A server that offers no completions completes nothing.
func (h *Hub) Complete(ctx context.Context, ref CompletionRef, argument, completionContext json.RawMessage) (json.RawMessage, error) {
	server, wireRef, err := h.completionTarget(ref)
	if err != nil {
		return nil, err
	}
	params := map[string]any{"ref": wireRef, "argument": argument}
	if len(completionContext) > 0 {
		params["context"] = completionContext
	}
	raw, err := h.request(ctx, server, "completion/complete", params)
	if offersNoTools(err) { // the server has no completion/complete
		return json.RawMessage(`{"completion":{"values":[]}}`), nil
	}
	return raw, err
}

// completionTarget finds the owner of ref and the ref as that server
// knows it.
func (h *Hub) completionTarget(ref CompletionRef) (string, map[string]any, error) {
	if ref.Prompt != "" {
		p, ok := h.extras.prompt(ref.Prompt)
		if !ok {
			return "", nil, fmt.Errorf("complete prompt %q: no such prompt", ref.Prompt)
		}
		return p.Server, map[string]any{"type": "ref/prompt", "name": p.Original}, nil
	}
	owner := h.extras.templateOwner(ref.URI)
	if owner == "" {
		var candidates []string
		if owner, candidates = h.extras.resourceOwner(ref.URI); owner == "" {
			return "", nil, fmt.Errorf("complete resource %q: no server owns it (%s)", ref.URI, ownerList(candidates))
		}
	}
	return owner, map[string]any{"type": "ref/resource", "uri": ref.URI}, nil
}
