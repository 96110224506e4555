package hub

import (
	"bytes"
	"log/slog"
	"slices"
)

// Tool is one entry of the merged catalog. A Tool is immutable once in a
// snapshot and may be shared by several snapshots; only Stats changes.
type Tool struct {
	// Name is the exposed name: server__tool, or the tool's own name for an
	// Unprefixed server, sanitised and shortened as naming.go describes.
	Name   string
	Server string
	// RawTool is the tool as its server listed it; RawTool.Name is the
	// original name to use when forwarding a call.
	RawTool
	Locality    Locality
	CostPerCall float64 // USD
	// CostPerSecond is USD per second of a call's wall time, on top of
	// CostPerCall (a sandbox billed by the second).
	CostPerSecond float64
	// Stats are kept per server and original name: they carry over to
	// later snapshots, also when the server is removed and added again.
	Stats *ToolStats

	validator *argValidator // nil when the tool declares no input schema
}

// ServerMeta is what the catalog needs to know about a server.
type ServerMeta struct {
	Name          string
	Locality      Locality
	CostPerCall   float64 // USD
	CostPerSecond float64 // USD per second of a call
	Unprefixed    bool
}

// serverEntry is one server's part of the catalog: its meta and its tools,
// sorted by original name, each with its plain name worked out.
type serverEntry struct {
	meta  ServerMeta
	tools []*preparedTool
}

// preparedTool is a tool as a server listed it, with everything that does
// not depend on other servers computed once.
type preparedTool struct {
	named     namedTool
	raw       RawTool
	validator *argValidator
	stats     *ToolStats
	built     *Tool // the Tool made at the last rebuild, reused while its name holds
}

func prepareTool(meta ServerMeta, raw RawTool, stats *ToolStats) *preparedTool {
	key := toolKey{server: meta.Name, tool: raw.Name}
	full := fullName(key, meta.Unprefixed)
	p := &preparedTool{
		named: namedTool{key: key, full: full, plain: plainName(key, meta.Unprefixed)},
		raw:   raw,
		stats: stats,
	}
	if len(bytes.TrimSpace(raw.InputSchema)) > 0 {
		p.validator = newArgValidator(raw.InputSchema)
	}
	return p
}

// toolFor returns the Tool for this entry under name, reusing the previous
// one when the name did not change.
func (p *preparedTool) toolFor(name string, meta ServerMeta) *Tool {
	if p.built != nil && p.built.Name == name {
		return p.built
	}
	p.built = &Tool{
		Name:          name,
		Server:        meta.Name,
		RawTool:       p.raw,
		Locality:      meta.Locality,
		CostPerCall:   meta.CostPerCall,
		CostPerSecond: meta.CostPerSecond,
		Stats:         p.stats,
		validator:     p.validator,
	}
	return p.built
}

func sameRawTool(a, b RawTool) bool {
	return a.Name == b.Name && a.Title == b.Title && a.Description == b.Description &&
		bytes.Equal(a.InputSchema, b.InputSchema) && bytes.Equal(a.OutputSchema, b.OutputSchema) &&
		bytes.Equal(a.Annotations, b.Annotations) && bytes.Equal(a.Raw, b.Raw)
}

// prepareServer builds a server's entry from a tools/list result, reusing
// the prepared tools of old (which may be nil) that did not change. Tools
// without a name are dropped, and of several with the same name the first
// listed is kept. statsFor gives each new tool its ToolStats. It reports
// whether the entry differs from old.
func prepareServer(meta ServerMeta, raws []RawTool, old *serverEntry, statsFor func(toolKey) *ToolStats) (*serverEntry, bool) {
	var previous map[string]*preparedTool
	if old != nil && old.meta == meta {
		previous = make(map[string]*preparedTool, len(old.tools))
		for _, p := range old.tools {
			previous[p.raw.Name] = p
		}
	}
	entry := &serverEntry{meta: meta, tools: make([]*preparedTool, 0, len(raws))}
	seen := make(map[string]bool, len(raws))
	reused := 0
	for _, raw := range raws {
		if raw.Name == "" || seen[raw.Name] {
			slog.Warn("server listed a tool without a name or twice; keeping the first",
				"server", meta.Name, "tool", raw.Name)
			continue
		}
		seen[raw.Name] = true
		if p, ok := previous[raw.Name]; ok && sameRawTool(p.raw, raw) {
			entry.tools = append(entry.tools, p)
			reused++
			continue
		}
		key := toolKey{server: meta.Name, tool: raw.Name}
		entry.tools = append(entry.tools, prepareTool(meta, raw, statsFor(key)))
	}
	slices.SortFunc(entry.tools, func(a, b *preparedTool) int {
		return compareToolKeys(a.named.key, b.named.key)
	})
	changed := old == nil || old.meta != meta || reused != len(old.tools) || len(entry.tools) != len(old.tools)
	return entry, changed
}
