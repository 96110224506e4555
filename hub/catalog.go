package hub

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Catalog is the merged tool catalog of all servers. It is copy-on-write:
// readers take an immutable *Snapshot without locking, writers serialise on
// a mutex and publish a rebuilt snapshot. Safe for concurrent use.
type Catalog struct {
	mu      sync.Mutex // serialises writers; guards servers, stats and the prepared tools
	servers map[string]*serverEntry
	// stats outlive a server's removal, so a server that restarts keeps
	// the figures measured before.
	stats   map[toolKey]*ToolStats
	plains  plainNameCounts // over all servers' tools
	version uint64
	current atomic.Pointer[Snapshot]

	onChange func(*Snapshot)
	notifier notifier
}

// NewCatalog returns an empty catalog. onChange, which may be nil, is
// called after each change that altered the catalog, outside every lock and
// never concurrently with itself. Calls may coalesce: it always receives the
// newest snapshot, and versions only increase from one call to the next.
// onChange may call SetServer or RemoveServer; it then sees that change too.
func NewCatalog(onChange func(*Snapshot)) *Catalog {
	c := &Catalog{
		servers:  make(map[string]*serverEntry),
		stats:    make(map[toolKey]*ToolStats),
		plains:   make(plainNameCounts),
		onChange: onChange,
	}
	c.current.Store(newSnapshot(0, nil, nil))
	return c
}

// Snapshot returns the current catalog. It never returns nil.
func (c *Catalog) Snapshot() *Snapshot {
	return c.current.Load()
}

// SetServer replaces the tools of the server named meta.Name (adding the
// server if it is new) with tools, as listed by the server. Nothing changes,
// and onChange is not called, when meta and tools equal what the catalog
// already holds.
func (c *Catalog) SetServer(meta ServerMeta, tools []RawTool) {
	c.mu.Lock()
	old := c.servers[meta.Name]
	entry, changed := prepareServer(meta, tools, old, c.statsFor)
	if changed {
		c.countPlainNames(old, entry)
		c.servers[meta.Name] = entry
		c.publishLocked()
	}
	c.mu.Unlock()
	if changed {
		c.notify()
	}
}

// RemoveServer takes a server and all its tools out of the catalog.
func (c *Catalog) RemoveServer(name string) {
	c.mu.Lock()
	old, present := c.servers[name]
	if present {
		c.countPlainNames(old, nil)
		delete(c.servers, name)
		c.publishLocked()
	}
	c.mu.Unlock()
	if present {
		c.notify()
	}
}

// countPlainNames moves a server's plain names from old to replacement;
// either may be nil.
func (c *Catalog) countPlainNames(old, replacement *serverEntry) {
	if old != nil {
		for _, p := range old.tools {
			c.plains.remove(p.named)
		}
	}
	if replacement != nil {
		for _, p := range replacement.tools {
			c.plains.add(p.named)
		}
	}
}

// publishLocked rebuilds the snapshot from the servers and makes it current.
// Every step is linear in the number of tools except the final sort by name.
func (c *Catalog) publishLocked() {
	serverNames := make([]string, 0, len(c.servers))
	total := 0
	for name, entry := range c.servers {
		serverNames = append(serverNames, name)
		total += len(entry.tools)
	}
	slices.Sort(serverNames)

	// Servers by name, each server's tools by name: key order, as the
	// namer needs.
	n := newNamer(c.plains)
	tools := make([]*Tool, 0, total)
	perServer := make(map[string]int, len(serverNames))
	for _, name := range serverNames {
		entry := c.servers[name]
		perServer[name] = len(entry.tools)
		for _, p := range entry.tools {
			tools = append(tools, p.toolFor(n.name(p.named), entry.meta))
		}
	}
	c.version++
	c.current.Store(newSnapshot(c.version, tools, perServer))
}

func (c *Catalog) statsFor(key toolKey) *ToolStats {
	s, ok := c.stats[key]
	if !ok {
		s = &ToolStats{}
		c.stats[key] = s
	}
	return s
}

// notifier delivers snapshots to onChange one at a time and in order.
type notifier struct {
	mu        sync.Mutex
	running   bool   // a goroutine is inside notify's loop
	pending   bool   // a change arrived while it was running
	delivered uint64 // version last passed to onChange; touched only by the running goroutine
}

// notify passes the current snapshot to onChange unless a call already in
// progress will pick it up.
func (c *Catalog) notify() {
	if c.onChange == nil {
		return
	}
	n := &c.notifier
	n.mu.Lock()
	if n.running {
		n.pending = true
		n.mu.Unlock()
		return
	}
	n.running = true
	for {
		n.pending = false
		n.mu.Unlock()
		c.deliverCurrent()
		n.mu.Lock()
		if !n.pending {
			n.running = false
			n.mu.Unlock()
			return
		}
	}
}

// deliverCurrent calls onChange with the current snapshot if it is newer
// than the last one delivered. Should onChange panic, later changes are
// still delivered.
func (c *Catalog) deliverCurrent() {
	n := &c.notifier
	snap := c.current.Load()
	if snap.version <= n.delivered {
		return
	}
	n.delivered = snap.version
	defer func() {
		if p := recover(); p != nil {
			n.mu.Lock()
			n.running = false
			n.mu.Unlock()
			panic(p)
		}
	}()
	c.onChange(snap)
}
