package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// rootsMemory keeps, for toolhub's stdin and stdout, the roots the
// 2026-07-28 client on them gave last, so that its later calls to a server
// that uses roots need no roots/list round of their own
// (bridgeClient.LearnRoots).
//
// A request of 2026-07-28 carries no session, but stdio carries one
// client's requests. What is remembered is used only for a client of the
// same name and version that declared roots with listChanged (it promises
// to say when its roots change), and only until a 2026-07-28 client sends
// notifications/roots/list_changed (changes). Over HTTP nothing is
// remembered: one HTTP connection may carry the requests of several
// clients of one process (Go's and mcp-go's clients share a pool of
// connections), so a client there is asked on each call.
type rootsMemory struct {
	changes *atomic.Uint64 // Server.rootsChanges

	mu     sync.Mutex
	client string // who gave them: rootsClient of the request
	seen   uint64 // changes when they were asked for
	roots  json.RawMessage
	key    string
}

type rootsMemoryKey struct{}

// withRootsMemory gives the requests made in ctx (those of one stdio
// client) a memory of their client's roots.
func (s *Server) withRootsMemory(ctx context.Context) context.Context {
	return context.WithValue(ctx, rootsMemoryKey{}, &rootsMemory{changes: &s.rootsChanges})
}

// rootsMemoryFrom is the memory of the client of ctx's request; nil where
// there is none (over HTTP).
func rootsMemoryFrom(ctx context.Context) *rootsMemory {
	m, _ := ctx.Value(rootsMemoryKey{}).(*rootsMemory)
	return m
}

// rootsClient names the client of a 2026-07-28 request for rootsMemory:
// "" (nothing is remembered) unless it declared roots with listChanged.
func rootsClient(info *mcpserver.RequestProtocolInfo) string {
	if info == nil || info.ClientCapabilities == nil || info.ClientCapabilities.Roots == nil ||
		!info.ClientCapabilities.Roots.ListChanged {
		return ""
	}
	name := "\x00"
	if info.ClientInfo != nil {
		name = info.ClientInfo.Name + "\x00" + info.ClientInfo.Version
	}
	return name
}

// recall returns the roots client gave last and the name they decide,
// when no roots/list_changed came since.
func (m *rootsMemory) recall(client string) (json.RawMessage, string, bool) {
	if m == nil || client == "" {
		return nil, "", false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.key == "" || m.client != client || m.seen != m.changes.Load() {
		return nil, "", false
	}
	return m.roots, m.key, true
}

// now is the count of roots changes to remember an answer asked for now
// against: an answer to a roots/list asked before a change is not kept.
func (m *rootsMemory) now() uint64 {
	if m == nil {
		return 0
	}
	return m.changes.Load()
}

// remember keeps client's answer, asked for when changes was seen.
func (m *rootsMemory) remember(client string, seen uint64, roots json.RawMessage, key string) {
	if m == nil || client == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.client, m.seen, m.roots, m.key = client, seen, roots, key
}

// forgetRoots is any client's notifications/roots/list_changed: no roots
// remembered before it are used again. A 2026-07-28 notification may come
// without _meta, so it is not told from an older client's, whose
// notification costs the clients with remembered roots one more round.
func (s *Server) forgetRoots() { s.rootsChanges.Add(1) }
