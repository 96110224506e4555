package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/hub"
)

// rootsAnswer answers every input request with the same roots/list result.
type rootsAnswer struct {
	result string
	asked  int
}

func (r *rootsAnswer) ask(_ context.Context, inputs []keyedInput) ([]json.RawMessage, error) {
	answers := make([]json.RawMessage, len(inputs))
	for i, in := range inputs {
		r.asked++
		if in.req.Method != mcpgo.MethodListRoots {
			return nil, &hub.ClientUnsupportedError{Capability: string(in.req.Method)}
		}
		answers[i] = json.RawMessage(r.result)
	}
	return answers, nil
}

func TestBridgeClientIsKnownByItsRoots(t *testing.T) {
	withRoots := hub.ClientCapabilities{Roots: true}
	tests := []struct {
		name    string
		caps    hub.ClientCapabilities
		answer  string
		session string // after LearnRoots; "" for the error case
		err     string
	}{
		{"no roots declared", hub.ClientCapabilities{Sampling: true}, `{"roots":[]}`, noRootsClient, ""},
		{"roots in one order", withRoots, `{"roots":[{"uri":"file:///a"},{"uri":"file:///b","name":"b"}]}`, "", ""},
		{"the same roots in the other", withRoots, `{"roots":[{"uri":"file:///b","name":"b"},{"uri":"file:///a"}]}`, "", ""},
		{"no roots given", withRoots, `{"roots":[]}`, "", ""},
		{"not a list of roots", withRoots, `{"nothing":1}`, "", "not a list of roots"},
	}
	names := map[string]string{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			asker := &rootsAnswer{result: tc.answer}
			c := &bridgeClient{asker: asker, caps: tc.caps}
			if !c.Sessionless() {
				t.Error("a bridge client must be sessionless")
			}
			err := c.LearnRoots(t.Context())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || c.Session() != "" {
					t.Fatalf("LearnRoots: %v, session %q; want %q and no name", err, c.Session(), tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := c.LearnRoots(t.Context()); err != nil || asker.asked > 1 {
				t.Fatalf("a second LearnRoots asked again (%d asks, %v)", asker.asked, err)
			}
			if tc.session != "" && c.Session() != tc.session {
				t.Fatalf("session %q, want %q", c.Session(), tc.session)
			}
			if !strings.HasPrefix(c.Session(), "roots:") {
				t.Fatalf("session %q is not a roots name", c.Session())
			}
			names[tc.name] = c.Session()
		})
	}
	if names["roots in one order"] != names["the same roots in the other"] {
		t.Error("the same roots in another order got another name")
	}
	if names["roots in one order"] == names["no roots given"] || names["no roots given"] == noRootsClient {
		t.Errorf("different roots share a name: %v", names)
	}
}

// idSession is a client session with a fixed id.
type idSession string

func (s idSession) Initialize()                                           {}
func (s idSession) Initialized() bool                                     { return true }
func (s idSession) NotificationChannel() chan<- mcpgo.JSONRPCNotification { return nil }
func (s idSession) SessionID() string                                     { return string(s) }

// TestSessionClientWithoutASession: a 2026-07-28 request over HTTP has no
// session; its client is named as one that gives no roots and is the same
// as no other, while a session's client keeps its id.
func TestSessionClientWithoutASession(t *testing.T) {
	tests := []struct {
		id, session string
		sessionless bool
	}{
		{"", noRootsClient, true},
		{"mcp-session-1", "mcp-session-1", false},
		{"stdio", "stdio", false},
	}
	for _, tc := range tests {
		c := &sessionClient{session: idSession(tc.id)}
		if c.Session() != tc.session || c.Sessionless() != tc.sessionless {
			t.Errorf("session id %q: Session %q, Sessionless %v; want %q, %v", tc.id, c.Session(), c.Sessionless(), tc.session, tc.sessionless)
		}
	}
}
