package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
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
