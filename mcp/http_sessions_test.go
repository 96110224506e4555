package mcp

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// bareSession is a client session with an id and nothing else.
type bareSession struct{ id string }

func (b *bareSession) SessionID() string                                     { return b.id }
func (b *bareSession) NotificationChannel() chan<- mcpgo.JSONRPCNotification { return nil }
func (b *bareSession) Initialize()                                           {}
func (b *bareSession) Initialized() bool                                     { return true }

func TestLiveSessionsGoBackToMCPGoBeforeTheyGoStale(t *testing.T) {
	now := time.Unix(1000, 0)
	l := newLiveSessions()
	l.now = func() time.Time { return now }
	hooks := &mcpserver.Hooks{}
	l.register(hooks)
	a := &bareSession{id: "a"}
	for _, f := range hooks.OnRegisterSession {
		f(context.Background(), a)
	}
	e := l.get("a")
	if e == nil || e.session != a {
		t.Fatalf("registered session not found: %v", e)
	}
	idle := time.Hour
	if !l.fresh(e, idle) {
		t.Error("a session just registered is not fresh")
	}
	now = now.Add(idle/4 - time.Second)
	if !l.fresh(e, idle) {
		t.Error("a session heard from within a quarter of the idle time is not fresh")
	}
	now = now.Add(2 * time.Second)
	if l.fresh(e, idle) {
		t.Error("a session unheard for a quarter of the idle time is still fresh: mcp-go would forget it")
	}
	l.passedOn(e)
	if !l.fresh(e, idle) {
		t.Error("a request through mcp-go did not freshen the session")
	}

	other := &bareSession{id: "a"} // the same id, registered anew
	for _, f := range hooks.OnRegisterSession {
		f(context.Background(), other)
	}
	for _, f := range hooks.OnUnregisterSession {
		f(context.Background(), a) // the old one's end must not drop the new one
	}
	if got := l.get("a"); got == nil || got.session != other {
		t.Errorf("after the old session ended, get = %v, want the new one", got)
	}
	for _, f := range hooks.OnUnregisterSession {
		f(context.Background(), other)
	}
	if got := l.get("a"); got != nil {
		t.Errorf("an ended session is still found: %v", got)
	}
	if l.get("") != nil {
		t.Error("the empty id found a session")
	}
}

func TestPlainHTTPCall(t *testing.T) {
	loopback := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	tests := []struct {
		name   string
		header map[string]string
		host   string
		local  net.Addr
		want   bool
	}{
		{name: "a legacy call", want: true},
		{name: "no version header yet", header: map[string]string{"Mcp-Protocol-Version": ""}, want: true},
		{name: "a 2026-07-28 request", header: map[string]string{"Mcp-Protocol-Version": mcpgo.ProtocolVersion20260728}},
		{name: "an unknown version", header: map[string]string{"Mcp-Protocol-Version": "1999-01-01"}},
		{name: "not JSON", header: map[string]string{"Content-Type": "text/plain"}},
		{name: "JSON with a charset", header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, want: true},
		{name: "a browser", header: map[string]string{"Origin": "http://localhost:3000"}},
		{name: "a client that reads only event streams", header: map[string]string{"Accept": "text/event-stream"}},
		{name: "a rebinding Host on loopback", host: "evil.example:8080", local: loopback},
		{name: "localhost on loopback", host: "localhost:8080", local: loopback, want: true},
		{name: "any Host off loopback", host: "toolhub.lan:8080", local: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 2), Port: 8080}, want: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", bytes.NewReader(nil))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Mcp-Protocol-Version", mcpgo.LATEST_LEGACY_PROTOCOL_VERSION)
			for k, v := range tt.header {
				r.Header.Set(k, v)
			}
			if tt.host != "" {
				r.Host = tt.host
			}
			if tt.local != nil {
				r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, tt.local))
			}
			if got := plainHTTPCall(r); got != tt.want {
				t.Errorf("plainHTTPCall = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzShortHTTPCalls sends any body on a live session, or as a 2026-07-28
// request: the short path either answers it or hands it on, never both,
// and never panics.
func FuzzShortHTTPCalls(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"srv__work","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"srv__work","_meta":{"progressToken":3}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"srv__work","task":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":"toolhub-ask-1","result":{"action":"accept"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"id":null,"method":"tools/call","params":null}`,
		`not json`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	cat := newFakeCatalog()
	cat.fail(errors.New("the server is away")) // each call is answered with an isError result
	s := testServer(f, cat, Options{Expose: ExposeDirect})
	ids := &mcpserver.InsecureStatefulSessionIdManager{}
	id := ids.Generate()
	live := &liveSession{session: &bareSession{id: id}}
	s.sessions.passedOn(live)
	s.sessions.byID.Store(id, live)
	f.Add([]byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"srv__work",`+modernMeta+`}}`), true)
	f.Fuzz(func(t *testing.T, body []byte, modern bool) {
		passed := false
		next := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { passed = true })
		r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Mcp-Session-Id", id)
		if modern {
			r.Header.Del("Mcp-Session-Id")
			for k, v := range modernHeaders("tools/call") {
				r.Header.Set(k, v)
			}
			r.Header.Set("Mcp-Name", "srv__work")
		}
		r = r.WithContext(withBody(r.Context(), body))
		w := httptest.NewRecorder()
		s.shortHTTPCalls(ids, time.Hour, next).ServeHTTP(w, r)
		answered := w.Code != http.StatusOK || w.Body.Len() > 0
		if passed == answered {
			t.Fatalf("passed on %v, answered %v (%d %q) for %q", passed, answered, w.Code, w.Body, body)
		}
	})
}
