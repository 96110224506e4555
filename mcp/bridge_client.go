package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// bridgeClient is the client of an exchange or a task as the hub sees it:
// a downstream's request waits for the client's answer instead of being
// sent to it.
//
// Such a client has no session, so it is known by its roots: once asked for
// them (LearnRoots, which the hub calls before a request reaches a server
// that uses roots) its Session is a name they decide, and the hub keeps a
// downstream session given those roots for the clients that have them
// (docs/architecture.md). Until then its Session is "". A client that
// declared no roots is noRootsClient.
type bridgeClient struct {
	asker inputAsker
	caps  hub.ClientCapabilities
	// memory and client, when set, let the client's roots come from what it
	// gave before (rootsMemory: over stdio).
	memory *rootsMemory
	client string

	mu    sync.Mutex
	roots json.RawMessage // the client's roots/list result, once it answered
	key   string          // the name its roots decide
}

var (
	_ hub.ClientRequester = (*bridgeClient)(nil)
	_ hub.RootsIdentified = (*bridgeClient)(nil)
	_ hub.BetweenCalls    = (*bridgeClient)(nil)
	_ hub.Sessionless     = (*bridgeClient)(nil)
	_ hub.InputRequester  = (*bridgeClient)(nil)
)

// modernCapabilities are what a 2026-07-28 client declared in the _meta of
// its request: the sampling, elicitation and roots it can answer.
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

// noRootsClient names every 2026-07-28 client that gives no roots: such
// clients share a downstream session that is never given any, rather than
// the shared session, which may hold another client's.
const noRootsClient = "roots:none"

// Session is the name the client's roots decide: noRootsClient when it
// declared none, "" before they are known.
func (c *bridgeClient) Session() string {
	if !c.caps.Roots {
		return noRootsClient
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.key
}

// Sessionless: clients with the same roots share a name, not requests.
func (c *bridgeClient) Sessionless() bool { return true }

func (c *bridgeClient) Capabilities() hub.ClientCapabilities { return c.caps }

func (c *bridgeClient) CreateMessage(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p mcpgo.CreateMessageParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("sampling/createMessage: decode params: %w", err)
	}
	return askOne(ctx, c.asker, mcpgo.NewSamplingInputRequest(p))
}

func (c *bridgeClient) Elicit(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p mcpgo.ElicitationParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("elicitation/create: decode params: %w", err)
	}
	return askOne(ctx, c.asker, mcpgo.NewElicitationInputRequest(p))
}

// AskInput puts a 2026-07-28 downstream's input requests to the client as
// they are: in one round, under the downstream's keys.
func (c *bridgeClient) AskInput(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	if len(requests) == 0 {
		return map[string]json.RawMessage{}, nil
	}
	inputs := make([]keyedInput, 0, len(requests))
	for key, raw := range requests {
		var req mcpgo.InputRequest
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, fmt.Errorf("input request %q: %w", key, err)
		}
		inputs = append(inputs, keyedInput{key: key, req: req})
	}
	slices.SortFunc(inputs, func(a, b keyedInput) int { return strings.Compare(a.key, b.key) })
	answers, err := c.asker.ask(ctx, inputs)
	if err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(inputs))
	for i, in := range inputs {
		out[in.key] = answers[i]
	}
	return out, nil
}

// ListRoots is the client's answer to roots/list, asked for once per call
// (its rounds share it); the next call asks again, so a change of roots
// reaches the servers with that call. Over stdio a client that declared
// roots with listChanged is asked once, and again after it says they
// changed (rootsMemory).
func (c *bridgeClient) ListRoots(ctx context.Context) (json.RawMessage, error) {
	if !c.caps.Roots {
		return nil, &hub.ClientUnsupportedError{Capability: hub.CapabilityRoots}
	}
	if err := c.LearnRoots(ctx); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.roots, nil
}

// LearnRoots asks the client for its roots, unless it already answered,
// declared none or its stdio remembers them, and names the client by them.
func (c *bridgeClient) LearnRoots(ctx context.Context) error {
	if c.Session() != "" {
		return nil
	}
	if raw, key, ok := c.memory.recall(c.client); ok {
		c.learned(raw, key)
		return nil
	}
	seen := c.memory.now()
	raw, err := askOne(ctx, c.asker, mcpgo.NewRootsInputRequest())
	if err != nil {
		return err
	}
	key, err := rootsKey(raw)
	if err != nil {
		return err
	}
	c.learned(raw, key)
	c.memory.remember(c.client, seen, raw, key)
	return nil
}

func (c *bridgeClient) learned(raw json.RawMessage, key string) {
	c.mu.Lock()
	c.roots, c.key = raw, key
	c.mu.Unlock()
}

// rootsKey names a client by its roots/list result: clients with the same
// roots, in any order, get the same name, and no other client does.
func rootsKey(raw json.RawMessage) (string, error) {
	var res struct {
		Roots []struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		} `json:"roots"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Roots == nil {
		return "", fmt.Errorf("roots/list: the client's answer is not a list of roots: %s", firstLine(string(raw), 200))
	}
	entries := make([]string, 0, len(res.Roots))
	for _, r := range res.Roots {
		entries = append(entries, r.URI+"\x00"+r.Name)
	}
	slices.Sort(entries)
	sum := sha256.Sum256([]byte(strings.Join(entries, "\x01")))
	return "roots:" + hex.EncodeToString(sum[:12]), nil
}

// BetweenCalls is the client as a downstream session held for its roots
// reaches it outside its calls: with the roots it gave, and nothing else
// (there is no request of the client to answer a sample or a question in).
// Nil before its roots are known.
func (c *bridgeClient) BetweenCalls() hub.ClientRequester {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.key == "" || !c.caps.Roots {
		return nil
	}
	return knownRoots{key: c.key, roots: c.roots}
}

// knownRoots answers roots/list with roots a client gave, and refuses
// everything else.
type knownRoots struct {
	key   string
	roots json.RawMessage
}

func (k knownRoots) Session() string { return k.key }

func (k knownRoots) Capabilities() hub.ClientCapabilities {
	return hub.ClientCapabilities{Roots: true}
}

func (k knownRoots) CreateMessage(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, &hub.ClientUnsupportedError{Capability: hub.CapabilitySampling, Why: outsideCall}
}

func (k knownRoots) Elicit(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, &hub.ClientUnsupportedError{Capability: hub.CapabilityElicitation, Why: outsideCall}
}

func (k knownRoots) ListRoots(context.Context) (json.RawMessage, error) { return k.roots, nil }

// outsideCall says why a 2026-07-28 client is not asked between its calls.
const outsideCall = "a 2026-07-28 client is asked only within its own requests"
