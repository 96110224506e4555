package hub

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
)

// wholeInputClient is a fakeClient that takes a 2026-07-28 server's input
// requests whole (InputRequester), as a 2026-07-28 client does, and
// records the keys of each round it was given.
type wholeInputClient struct {
	*fakeClient
	mu     sync.Mutex
	rounds [][]string
}

func (c *wholeInputClient) AskInput(ctx context.Context, requests map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	keys := make([]string, 0, len(requests))
	answers := make(map[string]json.RawMessage, len(requests))
	for key, raw := range requests {
		keys = append(keys, key)
		var req struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(raw, &req); err != nil {
			return nil, err
		}
		answer, err := askClient(ctx, c.fakeClient, req.Method, req.Params)
		if err != nil {
			return nil, err
		}
		answers[key] = answer
	}
	slices.Sort(keys)
	c.mu.Lock()
	c.rounds = append(c.rounds, keys)
	c.mu.Unlock()
	return answers, nil
}

// TestCurrentDownstreamInputComesWhole: the input requests a 2026-07-28
// server makes in one InputRequiredResult reach a client that takes them
// whole in one round, under the server's keys; a client of the older
// protocol is asked each in turn. Each client's roots reach the server
// with its own call: such a server keeps nothing of a client between
// requests, so no client's roots reach another's call.
func TestCurrentDownstreamInputComesWhole(t *testing.T) {
	eachModernTransport(t, "", func(t *testing.T, spec ServerSpec) {
		h := startHub(t, spec)
		for _, name := range []string{"ada", "bo"} {
			whole := &wholeInputClient{fakeClient: newFakeClient(name, allCapabilities())}
			res, err := h.Call(WithClient(t.Context(), whole), "modern__survey", nil, CallOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := resultText(t, res.Raw), name+" at file:///"+name; got != want {
				t.Errorf("%s's survey: %q, want %q", name, got, want)
			}
			if len(whole.rounds) != 1 || !slices.Equal(whole.rounds[0], []string{"where", "who"}) {
				t.Errorf("%s was asked in rounds %v, want one round of the server's keys [where who]", name, whole.rounds)
			}
		}

		older := newFakeClient("cy", allCapabilities())
		res, err := h.Call(WithClient(t.Context(), older), "modern__survey", nil, CallOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := resultText(t, res.Raw); got != "cy at file:///cy" {
			t.Errorf("older client's survey: %q", got)
		}
		if asked := older.requests(); len(asked) != 2 {
			t.Errorf("an older client was asked %q, want its two requests one by one", asked)
		}
	})
}

// TestCurrentDownstreamLearnsTheCallersCapabilities: a 2026-07-28 server
// is told, with each request, the capabilities of the client behind it
// (so it asks for nothing the client cannot give), and every capability
// the hub has for requests of its own.
func TestCurrentDownstreamLearnsTheCallersCapabilities(t *testing.T) {
	eachModernTransport(t, "", func(t *testing.T, spec ServerSpec) {
		h := startHub(t, spec)
		tests := []struct {
			name   string
			client ClientRequester
			want   string
		}{
			{"sampling only", newFakeClient("s", ClientCapabilities{Sampling: true}), "declared: sampling"},
			{"roots and elicitation", newFakeClient("r", ClientCapabilities{Roots: true, Elicitation: true}), "declared: elicitation roots"},
			{"nothing", newFakeClient("n", ClientCapabilities{}), "declared: "},
			{"the hub itself", nil, "declared: elicitation roots sampling"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				ctx := t.Context()
				if tc.client != nil {
					ctx = WithClient(ctx, tc.client)
				}
				res, err := h.Call(ctx, "modern__caps", nil, CallOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if got := strings.TrimSpace(resultText(t, res.Raw)); got != strings.TrimSpace(tc.want) {
					t.Errorf("the server was told %q, want %q", got, tc.want)
				}
			})
		}
	})
}
