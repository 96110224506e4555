package hub

import (
	"encoding/json"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// Transport is how the hub reaches a downstream server.
type Transport string

// The transports a downstream server may use.
const (
	TransportStdio Transport = "stdio"
	TransportSSE   Transport = "sse"
	TransportHTTP  Transport = "http"
	// TransportInProcess runs an mcp-go server inside the hub's process: the
	// built-in providers (documents search, python) and benchmarks use it.
	TransportInProcess Transport = "inprocess"
)

// Locality says whether data sent to a server or model stays on this machine.
type Locality string

// The two localities.
const (
	LocalityLocal  Locality = "local"
	LocalityRemote Locality = "remote"
)

// ServerSpec describes one downstream MCP server, already validated and with
// environment references expanded. The hub never reads config files itself.
type ServerSpec struct {
	Name      string
	Transport Transport

	// stdio
	Command string
	Args    []string
	Env     map[string]string // added to the child's minimal environment
	Cwd     string

	// sse and http
	URL     string
	Headers map[string]string
	// OAuth, for an http server, sets up its sign-in ahead of time; nil
	// means sign-in is used only once the server asks for it (401).
	OAuth *OAuthSpec

	// in-process
	InProcess *mcpserver.MCPServer

	// Unprefixed exposes the server's tools under their own names instead of
	// server__tool: built-in providers, and a single passthrough server.
	Unprefixed bool

	// Invalid, when set, says why the server's config entry cannot be used
	// (file:line:col: what is wrong): the server is listed as invalid and
	// never started.
	Invalid string

	// ClientRoots says the server depends on its client's roots: every
	// client gets a session of its own from the first call, as it does
	// anyway once the server asks for roots.
	ClientRoots bool
	// NoClientRoots gives the server no client's roots: the hub declares no
	// roots capability to it and refuses its roots/list, so it never gets a
	// session per client and no call waits for a client's roots. For a
	// server that asks for roots without needing them.
	NoClientRoots bool
	// MaxClientSessions caps the clients that get a session of their own
	// of this server at once; zero means Options.MaxClientSessions.
	MaxClientSessions int

	// Protocol is the MCP protocol asked of a stdio or Streamable HTTP
	// server (SSE has the handshake only): "" tries 2026-07-28
	// (server/discover) first and falls back to the initialize handshake;
	// ProtocolLegacy keeps to the handshake.
	Protocol Protocol

	Locality      Locality
	DisabledTools []string      // downstream tool names never put in the catalog
	Timeout       time.Duration // per call; zero means the hub's default
	CostPerCall   float64       // USD
	CostPerSecond float64       // USD per second of a call's wall time, on top of CostPerCall
}

// Protocol names the MCP protocol a server is spoken to in.
type Protocol string

// ProtocolLegacy keeps a server on the initialize handshake (2025-11-25).
const ProtocolLegacy Protocol = "2025-11-25"

// OAuthSpec is what the config says about an http server's OAuth sign-in.
// Every field is optional.
type OAuthSpec struct {
	// ClientID and ClientSecret name a client registered ahead of time;
	// without them the client is registered on the fly (RFC 7591).
	ClientID     string
	ClientSecret string
	// Scopes to ask for; without them the server's challenge or its
	// protected resource metadata says which.
	Scopes []string
	// AuthServerMetadataURL skips the discovery of the authorization server.
	AuthServerMetadataURL string
}

// RawTool is one entry of a downstream tools/list result, kept whole so that
// nothing of its schema is lost when it is re-exported.
type RawTool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
	// Raw is the tool object exactly as the server sent it.
	Raw json.RawMessage `json:"-"`
}

// ParseRawTools decodes the "tools" array of a tools/list result, keeping each
// entry's raw bytes.
func ParseRawTools(result json.RawMessage) ([]RawTool, error) {
	var page struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(result, &page); err != nil {
		return nil, err
	}
	tools := make([]RawTool, 0, len(page.Tools))
	for _, raw := range page.Tools {
		var t RawTool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, err
		}
		t.Raw = raw
		tools = append(tools, t)
	}
	return tools, nil
}
