package config

import (
	"time"

	"github.com/tailscale/hujson"
)

// The web search providers "webSearch.provider" accepts, with the variable
// that holds each one's key unless "apiKeyEnv" names another.
const (
	ProviderTavily = "tavily"
	ProviderBrave  = "brave"
)

var defaultKeyEnv = map[string]string{ProviderTavily: "TAVILY_API_KEY", ProviderBrave: "BRAVE_API_KEY"}

// The sandbox settings "python.sandbox" accepts.
const (
	SandboxAuto    = "auto"    // bubblewrap when installed, else resource limits only
	SandboxRequire = "require" // no python tool unless bubblewrap is installed
)

var (
	pythonKeys    = []string{"enabled", "command", "maxTimeout", "memoryMB", "maxOutputBytes", "sandbox"}
	webSearchKeys = []string{"provider", "apiKeyEnv", "maxResults", "timeout"}
)

// BuiltinTools is the "python" and "webSearch" sections: settings of the
// built-in tools other than search_documents.
type BuiltinTools struct {
	Python Python
	// WebSearch is nil when the section is absent: no web_search tool.
	WebSearch *WebSearch
}

// Python configures the python code-interpreter tool. Zero values mean the
// tool's defaults.
type Python struct {
	Disabled       bool          // "enabled": false
	Command        string        // interpreter; default python3 from the system PATH
	MaxTimeout     time.Duration // the longest timeout a call may ask for
	MemoryMB       int64         // address-space limit
	MaxOutputBytes int64         // per stream (stdout, stderr)
	Sandbox        string        // SandboxAuto or SandboxRequire
}

// WebSearch configures the web_search tool, offered only when the variable
// APIKeyEnv is set when toolhub starts.
type WebSearch struct {
	Provider   string // ProviderTavily or ProviderBrave
	APIKeyEnv  string // default TAVILY_API_KEY or BRAVE_API_KEY
	MaxResults int    // 0 means the tool's default
	Timeout    time.Duration
}

// ReadBuiltinTools decodes the python and webSearch sections of a toolhub
// configuration's source, reporting problems at their line and column.
func ReadBuiltinTools(filename string, data []byte) (*BuiltinTools, error) {
	out := &BuiltinTools{Python: Python{Sandbox: SandboxAuto}}
	d, members, ok := readTopLevel(filename, data)
	if !ok {
		return nil, d.err()
	}
	for _, m := range members {
		switch m.key {
		case "python":
			readPython(d, m.value, &out.Python)
		case "webSearch":
			out.WebSearch = readWebSearch(d, m)
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func readPython(d decoder, v *hujson.Value, p *Python) {
	members, ok := d.object(v, "python")
	if !ok {
		return
	}
	for _, m := range members {
		what := "python." + m.key
		switch m.key {
		case "enabled":
			enabled := d.boolean(m.value, what)
			p.Disabled = !enabled
		case "command":
			p.Command, _ = d.str(m.value, what)
		case "maxTimeout":
			p.MaxTimeout = readDuration(d, m, what)
		case "memoryMB":
			p.MemoryMB, _ = d.count(m.value, what)
		case "maxOutputBytes":
			p.MaxOutputBytes, _ = d.count(m.value, what)
		case "sandbox":
			p.Sandbox, _ = d.str(m.value, what)
			if p.Sandbox != SandboxAuto && p.Sandbox != SandboxRequire {
				d.at(m.valueAt, "%s: want %q or %q, got %q", what, SandboxAuto, SandboxRequire, clip(p.Sandbox))
			}
		default:
			d.at(m.keyAt, "python: unknown key %q%s", m.key, didYouMean(m.key, pythonKeys))
		}
	}
}

// readWebSearch decodes "webSearch"; provider is required.
func readWebSearch(d decoder, outer member) *WebSearch {
	members, ok := d.object(outer.value, "webSearch")
	if !ok {
		return nil
	}
	w := &WebSearch{}
	for _, m := range members {
		what := "webSearch." + m.key
		switch m.key {
		case "provider":
			w.Provider, _ = d.str(m.value, what)
			if _, known := defaultKeyEnv[w.Provider]; !known {
				d.at(m.valueAt, "%s: want %q or %q, got %q", what, ProviderTavily, ProviderBrave, clip(w.Provider))
			}
		case "apiKeyEnv":
			w.APIKeyEnv, _ = d.str(m.value, what)
		case "maxResults":
			n, _ := d.count(m.value, what)
			w.MaxResults = int(min(n, 50))
		case "timeout":
			w.Timeout = readDuration(d, m, what)
		default:
			d.at(m.keyAt, "webSearch: unknown key %q%s", m.key, didYouMean(m.key, webSearchKeys))
		}
	}
	if w.Provider == "" {
		d.at(outer.valueAt, "webSearch: provider is required (%q or %q)", ProviderTavily, ProviderBrave)
	}
	if w.APIKeyEnv == "" {
		w.APIKeyEnv = defaultKeyEnv[w.Provider]
	}
	return w
}
