package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// finish records the downstream call's result; the exchange's rounds see it.
func (ex *exchange) finish(res *mcpgo.CallToolResult) {
	ex.res = res
	close(ex.done)
}

// answer hands the client's responses to the downstream requests waiting
// on them. Responses to requests that are not waiting are ignored.
func (ex *exchange) answer(responses mcpgo.InputResponses) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	for id, response := range responses {
		p := ex.pending[id]
		if p == nil {
			continue
		}
		raw, err := json.Marshal(response)
		if err != nil {
			continue // left pending: asked again
		}
		p.answer <- raw
		delete(ex.pending, id)
	}
}

// roundOutcome is how one client request of an exchange ends: with the
// call's result, or asking the client for input.
type roundOutcome struct {
	res   *mcpgo.CallToolResult // the downstream's result; nil while input is needed
	input mcpgo.InputRequests
}

// await waits, within one client request, for the call's result or for
// input the downstream needs. Requests asked before and not yet answered
// are asked again at once. ctx ending (the client cancelled or went away)
// ends the round with ctx's error.
func (ex *exchange) await(ctx context.Context) (roundOutcome, error) {
	if input := ex.unanswered(); len(input) > 0 {
		return roundOutcome{input: ex.collect(input)}, nil
	}
	select {
	case <-ex.done:
		return roundOutcome{res: ex.res}, nil
	case p := <-ex.asks:
		ex.hold(p)
		return roundOutcome{input: ex.collect(ex.unanswered())}, nil
	case <-ctx.Done():
		return roundOutcome{}, ctx.Err()
	}
}

// collect adds every request the downstream is sending right now, so that
// requests it sends together reach the client in one round.
func (ex *exchange) collect(input mcpgo.InputRequests) mcpgo.InputRequests {
	for {
		select {
		case p := <-ex.asks:
			ex.hold(p)
			input[p.id] = p.req
		default:
			return input
		}
	}
}

func (ex *exchange) hold(p *pendingInput) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	ex.pending[p.id] = p
}

func (ex *exchange) unanswered() mcpgo.InputRequests {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	out := make(mcpgo.InputRequests, len(ex.pending))
	for id, p := range ex.pending {
		out[id] = p.req
	}
	return out
}

func (ex *exchange) forget(id string) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	delete(ex.pending, id)
}

// inputAsker holds a downstream's request for a 2026-07-28 client until
// the client answers it: a parked exchange (the answer comes with the
// client's retry) or a task (with tasks/update).
type inputAsker interface {
	ask(ctx context.Context, req mcpgo.InputRequest) (json.RawMessage, error)
}

// bridgeClient is the client of an exchange or a task as the hub sees it:
// a downstream's request waits for the client's answer instead of being
// sent to it.
type bridgeClient struct {
	asker inputAsker
	caps  hub.ClientCapabilities
}

var _ hub.ClientRequester = (*bridgeClient)(nil)

// modernCapabilities are what a 2026-07-28 client declared in the _meta of
// its request: the sampling and elicitation it can answer. Its roots are
// never passed on (ListRoots).
func modernCapabilities(declared *mcpgo.ClientCapabilities) hub.ClientCapabilities {
	if declared == nil {
		return hub.ClientCapabilities{}
	}
	return hub.ClientCapabilities{
		Sampling:    declared.Sampling != nil,
		Elicitation: declared.Elicitation != nil,
		Roots:       declared.Roots != nil,
	}
}

// modernRootsRefused says why a 2026-07-28 client's roots are not asked
// for: such a client has no session, so nothing would keep a downstream
// session given its roots to it alone (docs/architecture.md).
const modernRootsRefused = "a 2026-07-28 client has no session to keep its roots to; toolhub does not pass them on"

// Session is "": a 2026-07-28 client has no session that lasts past its
// request, so no downstream session is kept for it.
func (c *bridgeClient) Session() string { return "" }

func (c *bridgeClient) Capabilities() hub.ClientCapabilities { return c.caps }

func (c *bridgeClient) CreateMessage(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p mcpgo.CreateMessageParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("sampling/createMessage: decode params: %w", err)
	}
	return c.asker.ask(ctx, mcpgo.NewSamplingInputRequest(p))
}

func (c *bridgeClient) Elicit(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p mcpgo.ElicitationParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("elicitation/create: decode params: %w", err)
	}
	return c.asker.ask(ctx, mcpgo.NewElicitationInputRequest(p))
}

func (c *bridgeClient) ListRoots(context.Context) (json.RawMessage, error) {
	return nil, &hub.ClientUnsupportedError{Capability: hub.CapabilityRoots, Why: modernRootsRefused}
}

// ask parks one request until the client's retry answers it.
func (ex *exchange) ask(ctx context.Context, req mcpgo.InputRequest) (json.RawMessage, error) {
	p := newPendingInput(req, ex.next.Add(1))
	select {
	case ex.asks <- p:
	case <-ctx.Done():
		return nil, unanswered(req, ctx.Err())
	}
	select {
	case raw := <-p.answer:
		return raw, nil
	case <-ctx.Done():
		ex.forget(p.id)
		return nil, unanswered(req, ctx.Err())
	}
}

// newPendingInput is the n-th request a client is asked within one call
// or task; its id names it in inputRequests.
func newPendingInput(req mcpgo.InputRequest, n uint64) *pendingInput {
	return &pendingInput{
		id:     string(req.Method) + "-" + strconv.FormatUint(n, 10),
		req:    req,
		answer: make(chan json.RawMessage, 1),
	}
}

func unanswered(req mcpgo.InputRequest, err error) error {
	return fmt.Errorf("%s: the client did not answer: %w", req.Method, err)
}

// inputIDs lists the ids of input requests in order, for logs and tests.
func inputIDs(input mcpgo.InputRequests) []string {
	ids := make([]string, 0, len(input))
	for id := range input {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
