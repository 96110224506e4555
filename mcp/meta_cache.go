package mcp

import (
	"sync"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// metaCache remembers what modernInfo read from a 2026-07-28 call's _meta,
// by the _meta's bytes. A client sends the same _meta (its protocol
// version, identity and capabilities) with every call, and decoding it
// again was the largest part of what the short path spends on such a call
// beyond an older client's. Only a _meta without a progress token is
// kept: a token differs from call to call.
type metaCache struct {
	mu      sync.Mutex
	entries map[string]*mcpserver.RequestProtocolInfo
}

// metaCacheSize bounds the cache: when full it starts over. Each client
// has one _meta, so this many clients calling at once all stay cached.
const metaCacheSize = 64

// maxCachedMeta is the largest _meta kept, in bytes: a client's version,
// identity and capabilities take a few hundred. A larger one is read on
// every call, so that the cache never holds more than 64 × 4 KiB.
const maxCachedMeta = 4 << 10

// get returns a copy of what raw was read as, and whether it was cached.
// The copy shares the capabilities, which nothing changes.
func (c *metaCache) get(raw []byte) (*mcpserver.RequestProtocolInfo, bool) {
	c.mu.Lock()
	info, ok := c.entries[string(raw)]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	dup := *info
	return &dup, true
}

// put remembers info as what raw says, unless raw is longer than
// maxCachedMeta.
func (c *metaCache) put(raw []byte, info *mcpserver.RequestProtocolInfo) {
	if len(raw) > maxCachedMeta {
		return
	}
	dup := *info
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= metaCacheSize {
		c.entries = make(map[string]*mcpserver.RequestProtocolInfo, metaCacheSize)
	}
	c.entries[string(raw)] = &dup
}

// len is how many _meta are cached.
func (c *metaCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
