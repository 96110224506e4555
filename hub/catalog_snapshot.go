package hub

import (
	"slices"
	"strings"
	"sync"
)

// Snapshot is the catalog at one moment. It never changes once published
// (only the tools' Stats move), so it may be read from any goroutine without
// locking.
type Snapshot struct {
	version  uint64
	tools    []*Tool // sorted by Name
	byName   map[string]*Tool
	byServer map[string][]*Tool // each sorted by Name

	suggestOnce  sync.Once
	suggestIndex []suggestEntry // built on the first Suggest
}

// newSnapshot indexes tools, sorting them in place; perServer counts the
// tools of each server.
func newSnapshot(version uint64, tools []*Tool, perServer map[string]int) *Snapshot {
	slices.SortFunc(tools, func(a, b *Tool) int { return strings.Compare(a.Name, b.Name) })
	s := &Snapshot{
		version:  version,
		tools:    tools,
		byName:   make(map[string]*Tool, len(tools)),
		byServer: make(map[string][]*Tool, len(perServer)),
	}
	// One backing array, cut into a full-capacity slice per server.
	backing := make([]*Tool, len(tools))
	offset := 0
	for server, count := range perServer {
		s.byServer[server] = backing[offset : offset : offset+count]
		offset += count
	}
	for _, t := range tools {
		s.byName[t.Name] = t
		s.byServer[t.Server] = append(s.byServer[t.Server], t)
	}
	return s
}

// Version increases with every change to the catalog; the empty catalog a
// new Catalog starts with is version 0.
func (s *Snapshot) Version() uint64 {
	return s.version
}

// Tools returns every tool, sorted by exposed name. The slice is the
// snapshot's own: callers must not modify it or its tools.
func (s *Snapshot) Tools() []*Tool {
	return s.tools
}

// Lookup finds a tool by exposed name.
func (s *Snapshot) Lookup(name string) (*Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}

// ServerTools returns the tools of one server, sorted by exposed name, or
// nil for a server the snapshot does not hold. The slice is the snapshot's
// own: callers must not modify it.
func (s *Snapshot) ServerTools(server string) []*Tool {
	return s.byServer[server]
}

// Len is the number of tools.
func (s *Snapshot) Len() int {
	return len(s.tools)
}
