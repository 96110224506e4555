package mcp

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// Exposure is how the catalog's tools are offered to clients.
type Exposure string

// The exposures.
const (
	// ExposeDirect lists every catalog tool under its exposed name.
	ExposeDirect Exposure = "direct"
	// ExposeSearch lists only find_tools, describe_tool and call_tool: a
	// small, fixed surface however large the catalog.
	ExposeSearch Exposure = "search"
	// ExposeBoth lists every catalog tool and find_tools.
	ExposeBoth Exposure = "both"
)

// ParseExposure reads an --expose value.
func ParseExposure(s string) (Exposure, error) {
	switch e := Exposure(s); e {
	case ExposeDirect, ExposeSearch, ExposeBoth:
		return e, nil
	default:
		return "", fmt.Errorf("exposure %q: want direct, search or both", s)
	}
}

// surfaceState is what the client-facing tool list was last built from.
type surfaceState struct {
	mu        sync.Mutex
	synced    bool
	version   uint64
	signature [sha256.Size]byte
	// headerBound names the tools on the surface with x-mcp-header
	// annotations, whose Mcp-Param-* headers a 2026-07-28 call must match
	// (headersMatch); set before the tools reach mcp-go.
	headerBound atomic.Pointer[map[string]bool]
}

// syncSurface brings the client-facing tool list up to date with the
// catalog. mcp-go's SetTools replaces the list atomically and sends
// tools/list_changed; it is called only when what clients see changed.
func (s *Server) syncSurface() {
	s.surface.mu.Lock()
	defer s.surface.mu.Unlock()
	snap := s.cat.Snapshot()
	if s.surface.synced && snap.Version() == s.surface.version {
		return
	}
	tools, sig := s.buildTools(snap)
	first := !s.surface.synced
	s.surface.synced, s.surface.version = true, snap.Version()
	if !first && sig == s.surface.signature {
		return
	}
	s.surface.signature = sig
	bound := make(map[string]bool)
	for i := range tools {
		if len(mcpgo.ExtractParamHeaderBindings(&tools[i].Tool)) > 0 {
			bound[tools[i].Tool.Name] = true
		}
	}
	s.surface.headerBound.Store(&bound)
	s.mcp.SetTools(tools...)
	s.log.Debug("tool surface updated", "tools", len(tools), "catalog_version", snap.Version())
}

// buildTools is the tool list for one snapshot under the chosen exposure,
// with a signature of what clients see of it.
func (s *Server) buildTools(snap *hub.Snapshot) ([]mcpserver.ServerTool, [sha256.Size]byte) {
	meta := s.conductorTools()
	switch s.opts.Expose {
	case ExposeSearch:
		meta = append(meta, s.findToolsTool(ExposeSearch), s.describeToolTool(), s.callToolTool())
		return meta, signature(meta)
	case ExposeBoth:
		meta = append(meta, s.findToolsTool(ExposeBoth))
	}
	reserved := make(map[string]bool, len(meta))
	for _, m := range meta {
		reserved[m.Tool.Name] = true
	}
	tools := make([]mcpserver.ServerTool, 0, snap.Len()+len(meta))
	h := sha256.New()
	for _, t := range snap.Tools() {
		if reserved[t.Name] {
			s.log.Warn("catalog tool hidden by toolhub's own tool of the same name", "tool", t.Name, "server", t.Server)
			continue
		}
		tool := exportTool(t)
		// mcp-go panics on a tool whose x-mcp-header annotations are invalid;
		// such a downstream tool is left out instead.
		if err := mcpgo.ValidateParamHeaderAnnotations(&tool); err != nil {
			s.log.Warn("tool left out: invalid x-mcp-header annotation", "tool", t.Name, "err", err)
			continue
		}
		// One tool that cannot be encoded would break every tools/list.
		encoded, err := tool.MarshalJSON()
		if err != nil {
			s.log.Warn("tool left out: cannot be encoded", "tool", t.Name, "err", err)
			continue
		}
		h.Write(encoded)
		h.Write([]byte{0})
		tools = append(tools, mcpserver.ServerTool{Tool: tool, Handler: s.forwardHandler(t.Name)})
	}
	tools = append(tools, meta...)
	for _, m := range meta {
		h.Write([]byte(m.Tool.Name))
	}
	var sig [sha256.Size]byte
	copy(sig[:], h.Sum(nil))
	return tools, sig
}

// signature identifies a fixed tool list by its names.
func signature(tools []mcpserver.ServerTool) [sha256.Size]byte {
	h := sha256.New()
	for _, t := range tools {
		h.Write([]byte(t.Tool.Name))
		h.Write([]byte{0})
	}
	var sig [sha256.Size]byte
	copy(sig[:], h.Sum(nil))
	return sig
}
