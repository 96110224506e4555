package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// fakeClient is a hand-written ClientRequester: it records what it was asked
// and answers with its own session in every reply.
type fakeClient struct {
	session string
	caps    ClientCapabilities
	// gate, when set, is waited on before each answer (or until ctx ends).
	gate <-chan struct{}
	// arrived, when set, receives one value per request as it comes in.
	arrived chan<- string

	mu    sync.Mutex
	asked []string // method and params of each request
	roots []string // the roots it lists; file:///<session> while unset
}

func newFakeClient(session string, caps ClientCapabilities) *fakeClient {
	return &fakeClient{session: session, caps: caps}
}

func allCapabilities() ClientCapabilities {
	return ClientCapabilities{Sampling: true, Elicitation: true, Roots: true}
}

func (f *fakeClient) Session() string                  { return f.session }
func (f *fakeClient) Capabilities() ClientCapabilities { return f.caps }

func (f *fakeClient) CreateMessage(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	if err := f.record(ctx, "sampling/createMessage "+string(params)); err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{
		"role":    "assistant",
		"content": map[string]any{"type": "text", "text": "sampled by " + f.session},
		"model":   "fake-" + f.session,
	})
}

func (f *fakeClient) Elicit(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	if err := f.record(ctx, "elicitation/create "+string(params)); err != nil {
		return nil, err
	}
	return json.Marshal(map[string]any{"action": "accept", "content": map[string]any{"name": f.session}})
}

func (f *fakeClient) ListRoots(ctx context.Context) (json.RawMessage, error) {
	if err := f.record(ctx, "roots/list"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	uris := append([]string(nil), f.roots...)
	f.mu.Unlock()
	if len(uris) == 0 {
		uris = []string{"file:///" + f.session}
	}
	roots := make([]any, 0, len(uris))
	for _, uri := range uris {
		roots = append(roots, map[string]any{"uri": uri})
	}
	return json.Marshal(map[string]any{"roots": roots})
}

// setRoots changes the roots the client lists.
func (f *fakeClient) setRoots(uris ...string) {
	f.mu.Lock()
	f.roots = uris
	f.mu.Unlock()
}

// BetweenCalls: the fake answers alike in and outside a call.
func (f *fakeClient) BetweenCalls() ClientRequester { return f }

func (f *fakeClient) record(ctx context.Context, what string) error {
	f.mu.Lock()
	f.asked = append(f.asked, what)
	f.mu.Unlock()
	if f.arrived != nil {
		f.arrived <- f.session
	}
	if f.gate == nil {
		return nil
	}
	select {
	case <-f.gate:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("fake client %s: %w", f.session, ctx.Err())
	}
}

func (f *fakeClient) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}
