package mcp

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// liveSessions are the client sessions mcp-go has registered, by id: the
// session a request names is found here by the short path of HTTP tool
// calls (shortHTTPCalls), which serves the request without mcp-go but with
// the session mcp-go would have given it.
//
// mcp-go forgets a session that sent it nothing for its idle time, and the
// short path does not tell it of the requests it serves. Each entry
// therefore remembers when a request of its session last went through
// mcp-go; once that is a quarter of the idle time ago, the session's next
// request goes through mcp-go again, which keeps it alive.
type liveSessions struct {
	byID sync.Map // session id → *liveSession
	now  func() time.Time
}

type liveSession struct {
	session  mcpserver.ClientSession
	viaMCPGo atomic.Int64 // Unix nanoseconds
}

func newLiveSessions() *liveSessions { return &liveSessions{now: time.Now} }

// register follows mcp-go's session registrations.
func (l *liveSessions) register(hooks *mcpserver.Hooks) {
	hooks.AddOnRegisterSession(func(_ context.Context, session mcpserver.ClientSession) {
		e := &liveSession{session: session}
		e.viaMCPGo.Store(l.now().UnixNano())
		l.byID.Store(session.SessionID(), e)
	})
	hooks.AddOnUnregisterSession(func(_ context.Context, session mcpserver.ClientSession) {
		if v, ok := l.byID.Load(session.SessionID()); ok && v.(*liveSession).session == session {
			l.byID.CompareAndDelete(session.SessionID(), v)
		}
	})
}

// get returns the registered session id, nil when there is none.
func (l *liveSessions) get(id string) *liveSession {
	if id == "" {
		return nil
	}
	v, ok := l.byID.Load(id)
	if !ok {
		return nil
	}
	return v.(*liveSession)
}

// passedOn records that a request of the session went through mcp-go.
func (l *liveSessions) passedOn(e *liveSession) { e.viaMCPGo.Store(l.now().UnixNano()) }

// fresh reports whether mcp-go heard from the session within a quarter of
// idle, so that a request can skip it without the session going stale.
func (l *liveSessions) fresh(e *liveSession, idle time.Duration) bool {
	return l.now().UnixNano()-e.viaMCPGo.Load() < int64(idle/4)
}
