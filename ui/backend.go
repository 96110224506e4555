package ui

import (
	"context"
	"time"
)

// Backend is everything the desktop shows and changes. Each tab sees only
// its own small part of it.
type Backend interface {
	HeaderBackend
	PreferencesBackend
	ServersBackend
	DocumentsBackend
	RunsBackend
	ChangesBackend
	GuideBackend
}

// GuideBackend serves the first-run guide: connecting the orchestrator.
type GuideBackend interface {
	// SetupState says what is configured yet, to open the guide by itself
	// on a first run.
	SetupState(ctx context.Context) (SetupState, error)
	// TestModel asks the OpenAI-compatible server at baseURL which models
	// it serves.
	TestModel(ctx context.Context, baseURL string) ([]string, error)
	// ModelPresets are the ways toolhub can start the model server itself,
	// with whether each can run here.
	ModelPresets(ctx context.Context) []ModelPreset
	// SaveModel writes the orchestrator to the config and uses it at once.
	SaveModel(ctx context.Context, m ModelSetup) error
}

// ChangesBackend pushes what changed behind the window, so that nothing
// is polled.
type ChangesBackend interface {
	// Changes calls fn, from any goroutine, with each change as it
	// happens, and returns when ctx ends.
	Changes(ctx context.Context, fn func(Change))
}

// Change is one kind of thing that changed behind the window.
type Change int

// The changes the window follows.
const (
	// ChangeServers: a server's state or the tool catalog changed.
	ChangeServers Change = iota
	// ChangePreferences: the preferences in force changed.
	ChangePreferences
	// ChangeRuns: a run was stored in the run log.
	ChangeRuns
)

// HeaderBackend feeds the header: the MCP endpoint and the orchestrator.
type HeaderBackend interface {
	// Endpoint describes the MCP endpoint clients connect to.
	Endpoint() Endpoint
	// OrchestratorHealth probes the orchestrator model; it may take a while.
	OrchestratorHealth(ctx context.Context) OrchestratorHealth
}

// PreferencesBackend reads, saves and explains the routing preferences.
type PreferencesBackend interface {
	Preferences(ctx context.Context) (Preferences, error)
	// SavePreferences writes p; the running hub applies it at once.
	SavePreferences(ctx context.Context, p Preferences) error
	// Preview says what the orchestrator would be told and offered under p.
	Preview(ctx context.Context, p Preferences) (PreferencesPreview, error)
}

// ServersBackend lists and manages downstream servers and model endpoints.
// Every change of the configured servers is written to the config file
// and applied to the running hub at once.
type ServersBackend interface {
	Servers(ctx context.Context) ([]ServerInfo, error)
	SetServerEnabled(ctx context.Context, name string, enabled bool) error
	RestartServer(ctx context.Context, name string) error
	// CheckServersJSON reads a pasted snippet without adding anything; name
	// names a single server pasted without one.
	CheckServersJSON(ctx context.Context, snippet, name string) (SnippetCheck, error)
	// AddServersJSON adds the servers of a pasted snippet and starts them.
	AddServersJSON(ctx context.Context, snippet, name string) (AddResult, error)
	// ClientConfigs lists the other MCP clients' config files found here.
	ClientConfigs(ctx context.Context) ([]ClientConfig, error)
	// ImportServers adds the named servers (all when names is nil) of a
	// client's config file and starts them.
	ImportServers(ctx context.Context, path string, names []string) (AddResult, error)
	// ServerJSON is one configured server's entry, {"name": {...}}, to edit.
	ServerJSON(ctx context.Context, name string) (string, error)
	// ReplaceServerJSON writes the edited entry of name and restarts it.
	ReplaceServerJSON(ctx context.Context, name, text string) error
	// RemoveServer deletes a configured server and stops it.
	RemoveServer(ctx context.Context, name string) error
	// SignIn signs in to a server that needs an OAuth sign-in; open gets
	// the URL to show in the browser. It returns once signed in.
	SignIn(ctx context.Context, name string, open func(authURL string)) error
}

// DocumentsBackend drives the local document index.
type DocumentsBackend interface {
	DocumentRoots(ctx context.Context) ([]string, error)
	// Ingest indexes paths, reporting progress as it goes (from any goroutine).
	Ingest(ctx context.Context, paths []string, progress func(IngestProgress)) (IngestSummary, error)
	IndexStats(ctx context.Context) (IndexStats, error)
	Search(ctx context.Context, query string, k int) ([]SearchHit, error)
}

// RunsBackend runs tasks and reads the run history.
type RunsBackend interface {
	// Run runs one task until it ends or ctx is cancelled, calling onStep
	// (from any goroutine) for every step as it happens.
	Run(ctx context.Context, req RunRequest, onStep func(RunStep)) (RunDetail, error)
	// History lists past runs, newest first, whose task contains query.
	History(ctx context.Context, query string, limit int) ([]RunSummary, error)
	RunDetail(ctx context.Context, id string) (RunDetail, error)
}

// Defaults for how often the desktop probes the orchestrator's health and
// how long a backend call may take.
const (
	defaultProbeEvery  = 20 * time.Second
	defaultCallTimeout = 30 * time.Second
)
