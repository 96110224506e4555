package config

import (
	"encoding/json"
	"time"
)

// File is a parsed toolhub configuration.
type File struct {
	// MCPServers are the downstream servers by name, disabled ones included.
	MCPServers map[string]Server
	// invalid are the server entries ParseServe kept aside for their
	// problems.
	invalid   map[string]invalidServer
	Documents Documents
	// LeftOut are the problems of the parts ParseServe left out (a
	// documents section with problems, an unknown top-level key), in file
	// order, for the hub to log.
	LeftOut []Problem

	// Sections kept as standard JSON (comments removed): models and the
	// orchestrator, which ReadModels reads; preferences and http, reserved.
	Models       json.RawMessage
	Orchestrator json.RawMessage
	Preferences  json.RawMessage
	HTTP         json.RawMessage

	// Path is the file the configuration came from ("" when parsed from memory).
	Path string
}

// The transports a server may declare in "type".
const (
	TypeStdio = "stdio"
	TypeSSE   = "sse"
	TypeHTTP  = "http"
)

// The localities a server may declare in "locality".
const (
	LocalityLocal  = "local"
	LocalityRemote = "remote"
)

// Server is one entry of "mcpServers", exactly as written (references such as
// ${VAR} are expanded only by File.Specs).
type Server struct {
	// Type is stdio, sse or http, always set after parsing: stdio when
	// "command" is set, otherwise http (sse when the URL path ends in /sse).
	Type string

	// stdio
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string

	// sse and http
	URL     string
	Headers map[string]string
	// OAuth is the optional "oauth" object of an http server: a client
	// registered ahead of time, scopes, or where the authorization server's
	// metadata is. Without it a server that asks for sign-in still gets one,
	// with a client registered on the fly.
	OAuth *OAuth

	// Locality is "local", "remote" or "" for the default (see DefaultLocality).
	Locality string
	// Disabled is set by "enabled": false.
	Disabled      bool
	DisabledTools []string
	// Timeout bounds one call; zero means the hub's default.
	Timeout time.Duration
	// CostPerCall is in USD.
	CostPerCall float64
	// CostPerSecond is USD per second of a call's wall time, on top of
	// CostPerCall (a sandbox billed by the second).
	CostPerSecond float64
	// Unprefixed exposes the server's tools under their own names instead
	// of server__tool (for a single server fronted by toolhub).
	Unprefixed bool
	// ClientRoots says the server depends on its client's roots, so that
	// each client gets a session of its own from its first call.
	ClientRoots bool
	// NoClientRoots ("clientRoots": false) gives the server no client's
	// roots at all: it is not told of them, so it never asks.
	NoClientRoots bool
	// MaxClientSessions caps the sessions of clients' own this server runs
	// at once; zero means the hub's default.
	MaxClientSessions int
	// Protocol pins the MCP protocol spoken to a stdio or Streamable HTTP
	// server: "" (or "auto") tries 2026-07-28 first with server/discover,
	// "2025-11-25" keeps to the initialize handshake.
	Protocol string

	// at holds where values were written, for problems found after parsing
	// (unset ${VAR} references). Keys are "" (the server's name), "env/K",
	// "headers/K" and "oauth/clientSecret".
	at map[string]position
}

// OAuth is a server's "oauth" object, as written: ClientSecret may hold
// ${VAR} references, expanded only by File.OAuthSpecs.
type OAuth struct {
	ClientID              string
	ClientSecret          string
	Scopes                []string
	AuthServerMetadataURL string
}

// Documents is the "documents" section: what the local index reads.
type Documents struct {
	// Dir is where the index lives; "" means the default data directory.
	Dir string
	// Roots are folders to index; a leading "~/" means the home directory
	// (see ResolvedRoots).
	Roots        []string
	Exclude      []string // glob patterns matched against file and folder names
	MaxFileBytes int64    // 0 means the retriever's default
	Embedder     *Embedder
}

// Embedder is an OpenAI-compatible /v1/embeddings endpoint. Without one,
// document search is keyword-only (BM25).
type Embedder struct {
	URL        string
	Model      string
	Dimensions int    // 0 means whatever the model returns
	APIKeyEnv  string // name of the environment variable holding the key
	BatchSize  int    // 0 means the retriever's default
}

// position is a 1-based line and byte column in a file.
type position struct {
	line, col int
}

// IsEnabled reports whether the hub should start the server.
func (s Server) IsEnabled() bool { return !s.Disabled }

// invalidServer is a server entry that cannot be used, with why.
type invalidServer struct {
	server   Server // what could be read of it
	problems []Problem
}
