package hub

import (
	"context"
	"encoding/json"
	"fmt"
)

// InputRequester is implemented by a client that takes a 2026-07-28
// server's input requests as the server wrote them: every request of one
// InputRequiredResult at once, under the server's own keys, answered
// together. A client of 2026-07-28 does (it is asked with an
// InputRequiredResult of its own); a client of an older protocol is asked
// one request at a time instead.
type InputRequester interface {
	AskInput(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error)
}

// inputRequest is one entry of an InputRequiredResult's inputRequests.
type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// fulfil answers a 2026-07-28 server's input requests through the client
// of the call they belong to: all at once when it is an InputRequester,
// else one by one as the server-initiated requests of the older protocol
// are answered. A server of 2026-07-28 keeps no session and asks within
// the request that needs the answer, so the client behind that request is
// the one asked, roots included, and a request no client made (the hub's
// own) has nobody to ask: other clients' calls in flight are never asked
// in its place.
func (d *downstream) fulfil(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	decoded := make(map[string]inputRequest, len(requests))
	for id, raw := range requests {
		var req inputRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, fmt.Errorf("input request %q: %w", id, err)
		}
		if len(req.Params) == 0 || string(req.Params) == "null" {
			req.Params = json.RawMessage(`{}`)
		}
		decoded[id] = req
	}
	client := ClientFrom(ctx)
	if client == nil {
		return nil, fmt.Errorf("server %s: %w", d.spec.Name, ErrNoClient)
	}
	for id, req := range decoded {
		capability, err := d.askable(req.Method)
		if err == nil {
			err = checkCapability(client, capability)
		}
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", id, req.Method, err)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, d.callTimeout())
	defer cancel()
	if whole, ok := client.(InputRequester); ok {
		d.log.Debug("forwarding a server's input requests to the client", "requests", len(requests))
		return whole.AskInput(ctx, requests)
	}
	responses := make(map[string]json.RawMessage, len(decoded))
	for id, req := range decoded {
		answer, err := askClient(ctx, client, req.Method, withoutRelatedTask(req.Params))
		if err != nil {
			return nil, fmt.Errorf("input request %q (%s): %w", id, req.Method, err)
		}
		responses[id] = answer
	}
	return responses, nil
}

// askable names the client capability a request of this server for
// method needs, or says why no client is asked it: a method the hub does
// not forward, or roots the server's entry keeps from it.
func (d *downstream) askable(method string) (string, error) {
	capability, ok := capabilityFor(method)
	if !ok {
		return "", &unknownMethodError{method: method}
	}
	if capability == CapabilityRoots && d.spec.NoClientRoots {
		return "", &ClientUnsupportedError{Capability: capability, Why: "this server's entry gives it no client's roots"}
	}
	return capability, nil
}

// speaksModern reports whether the server's current connection is of
// protocol 2026-07-28, which has no session for a client's state to stay
// in.
func (d *downstream) speaksModern() bool {
	conn, _ := d.currentConn()
	return conn != nil && conn.era.modern
}
