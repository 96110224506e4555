package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// finish records the downstream call's outcome; the exchange's rounds see
// it.
func (ex *exchange) finish(res *mcpgo.CallToolResult, refused *refusal) {
	ex.res, ex.refused = res, refused
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
	res     *mcpgo.CallToolResult // the downstream's result; nil while input is needed
	refused *refusal              // or the error the client gets in its place
	input   mcpgo.InputRequests
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
		return roundOutcome{res: ex.res, refused: ex.refused}, nil
	case ps := <-ex.asks:
		ex.hold(ps)
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
		case ps := <-ex.asks:
			ex.hold(ps)
			for _, p := range ps {
				input[p.id] = p.req
			}
		default:
			return input
		}
	}
}

func (ex *exchange) hold(ps []*pendingInput) {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	for _, p := range ps {
		ex.pending[p.id] = p
	}
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

// inputAsker holds a downstream's requests for a 2026-07-28 client until
// the client answers them: a parked exchange (the answers come with the
// client's retry) or a task (with tasks/update). The requests of one call
// of ask reach the client in one round; the answers come back in their
// order.
type inputAsker interface {
	ask(ctx context.Context, inputs []keyedInput) ([]json.RawMessage, error)
}

// keyedInput is one request to ask, under the key a 2026-07-28 downstream
// gave it, or "" for one the hub names itself.
type keyedInput struct {
	key string
	req mcpgo.InputRequest
}

// askOne asks a single request the hub names itself.
func askOne(ctx context.Context, a inputAsker, req mcpgo.InputRequest) (json.RawMessage, error) {
	answers, err := a.ask(ctx, []keyedInput{{req: req}})
	if err != nil {
		return nil, err
	}
	return answers[0], nil
}

// ask parks the requests until the client's retries answer them.
func (ex *exchange) ask(ctx context.Context, inputs []keyedInput) ([]json.RawMessage, error) {
	ex.mu.Lock()
	ps := newPendingInputs(inputs, &ex.next, ex.pending)
	ex.mu.Unlock()
	select {
	case ex.asks <- ps:
	case <-ctx.Done():
		return nil, unanswered(ps[0].req, ctx.Err())
	}
	return awaitAnswers(ctx, ps, ex.forget)
}

// awaitAnswers waits for the answer to each of ps; when ctx ends first,
// the requests still waiting are forgotten.
func awaitAnswers(ctx context.Context, ps []*pendingInput, forget func(id string)) ([]json.RawMessage, error) {
	answers := make([]json.RawMessage, len(ps))
	for i, p := range ps {
		select {
		case answers[i] = <-p.answer:
		case <-ctx.Done():
			for _, q := range ps[i:] {
				forget(q.id)
			}
			return nil, unanswered(p.req, ctx.Err())
		}
	}
	return answers, nil
}

// newPendingInputs makes the pending requests of inputs: each under its
// downstream's key when it has one that no request waiting (in pending)
// or asked alongside has, else under the next number of next.
func newPendingInputs(inputs []keyedInput, next *atomic.Uint64, pending map[string]*pendingInput) []*pendingInput {
	ps := make([]*pendingInput, len(inputs))
	taken := make(map[string]bool, len(inputs))
	for i, in := range inputs {
		id := in.key
		if id == "" || taken[id] || pending[id] != nil {
			id = string(in.req.Method) + "-" + strconv.FormatUint(next.Add(1), 10)
		}
		taken[id] = true
		ps[i] = &pendingInput{id: id, req: in.req, answer: make(chan json.RawMessage, 1)}
	}
	return ps
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
