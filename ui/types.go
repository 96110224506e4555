package ui

import (
	"errors"
	"strings"
	"time"
)

// Privacy is where tools and models may run.
type Privacy string

// The three privacy choices.
const (
	PrivacyLocalOnly   Privacy = "local-only"
	PrivacyPreferLocal Privacy = "prefer-local"
	PrivacyAny         Privacy = "any"
)

// Weight is how much the orchestrator should favour one tool or model.
type Weight string

// The four weights.
const (
	WeightPrefer  Weight = "prefer"
	WeightNeutral Weight = "neutral"
	WeightAvoid   Weight = "avoid"
	WeightOff     Weight = "off"
)

// Preferences are the user's routing preferences.
type Preferences struct {
	Privacy       Privacy
	CostWeight    float64 // 0 (ignore cost) to 1 (cost matters most)
	LatencyWeight float64 // 0 to 1
	BudgetUSD     float64 // per task; 0 = no budget
	Tools         map[string]Weight
	Models        map[string]Weight
	// Problem says why the preferences file on disk is not in force (it
	// was edited into something invalid); the preferences shown are the
	// last valid ones. Never saved.
	Problem string
}

// clone copies p so that maps are not shared.
func (p Preferences) clone() Preferences {
	c := p
	c.Tools = make(map[string]Weight, len(p.Tools))
	for k, v := range p.Tools {
		c.Tools[k] = v
	}
	c.Models = make(map[string]Weight, len(p.Models))
	for k, v := range p.Models {
		c.Models[k] = v
	}
	return c
}

// PreferencesPreview is what the orchestrator is told and offered.
type PreferencesPreview struct {
	Sentence      string
	AllowedTools  []string
	AllowedModels []string
	// AllTools and AllModels name every tool and model, allowed or not.
	AllTools  []string
	AllModels []string
}

// Endpoint is the MCP endpoint and ready-to-paste client configurations.
type Endpoint struct {
	URL      string
	State    string // "listening", "stopped", or an error
	Snippets []ClientSnippet
}

// ClientSnippet is one client's configuration text.
type ClientSnippet struct {
	Client string // "Claude Desktop", "VS Code", "Cursor", "claude mcp add"
	Text   string
}

// OrchestratorHealth is what is known of the orchestrator model.
type OrchestratorHealth struct {
	Reachable bool
	// Loading: the server answers but is still loading the model (its
	// /health says 503); runs wait for it.
	Loading bool
	Model   string
	GPU     string // empty when unknown
	Memory  string // empty when unknown
	Detail  string // why it is unreachable, or the fallback in use
}

// Health says how a server or model is doing, for its colour.
type Health int

// Health levels.
const (
	HealthUnknown Health = iota
	HealthOK
	HealthBusy // starting or restarting
	HealthFailed
	HealthOff
)

// ServerInfo is one downstream server or model endpoint.
type ServerInfo struct {
	Name       string
	Kind       string // KindServer, KindBuiltin or KindModel
	Title      string // what people call it, when not its name ("Documents search")
	Health     Health
	State      string // in words: "ready", "restarting (3)"...
	Locality   string
	Tools      int
	Latency    time.Duration // measured moving average; 0 = not yet
	Cost       string        // "$0.002/call", "$1.25/M in"...
	Enabled    bool
	LastError  string
	StderrTail string
	ToolList   []ToolInfo  // its tools, sorted by name
	Problem    *PlainError // what is wrong in words; nil when nothing is
}

// IngestProgress is one moment of an ingest.
type IngestProgress struct {
	Done, Total int
	Path        string
}

// IngestSummary sums up an ingest.
type IngestSummary struct {
	Indexed, Unchanged, Skipped, Failed, Removed, Chunks int
}

// IndexStats describes the document index.
type IndexStats struct {
	Documents int // -1 when the backend does not know
	Chunks    int
	Bytes     int64
	Embedder  string // model name and state; empty = BM25 only
}

// SearchHit is one ranked passage.
type SearchHit struct {
	Path    string
	Heading string
	Score   float64
	Snippet string
}

// RunRequest is a task to run.
type RunRequest struct {
	Task string
	Mode string // "tools" or "research"
}

// RunModes are the modes a run may use.
var RunModes = []string{"tools", "research"}

// RunStep is one step of a run.
type RunStep struct {
	Index    int
	Kind     string // model, tool, observation, answer
	Name     string // tool or model name
	Purpose  string // what a model call was for
	Locality string
	Wall     time.Duration
	USD      float64
	Error    string
	Refused  bool   // the call was not sent: Error says why
	Text     string // an observation's or an answer's text
	Input    string // a tool call's arguments, a model call's request
	Output   string // a tool's result, a model's reply
}

// RunSummary is one run in the history.
type RunSummary struct {
	ID        string
	Task      string
	Status    string
	Forced    bool // the answer came from the fallback policy
	Started   time.Time
	USD       float64
	Wall      time.Duration
	ToolCalls int
}

// RunDetail is a whole run.
type RunDetail struct {
	RunSummary
	Mode   string
	Answer string
	Error  string
	Steps  []RunStep
}

// ServerKind says what a row of the Servers tab is.
const (
	KindServer  = "server"  // a configured MCP server
	KindBuiltin = "builtin" // one of toolhub's own tools
	KindModel   = "model"   // a model endpoint
)

// ToolInfo is one tool a server offers.
type ToolInfo struct {
	Name        string
	Description string
}

// SnippetCheck is what a pasted snippet would add, read as it is typed.
type SnippetCheck struct {
	Names     []string // the servers it holds
	NeedsName bool     // one server pasted without a name: ask for one
	// Problem is the first thing wrong, "line 3, column 5: ..."; empty
	// when the snippet can be added.
	Problem  string
	Warnings []string
}

// AddResult is what an add or import did.
type AddResult struct {
	Added   []string
	Skipped []string // "name: why", in words
	// SecretsMoved names the literal secrets moved into the secret store.
	SecretsMoved []string
}

// ClientConfig is another MCP client's config file found on this machine.
type ClientConfig struct {
	Client  string // in words: "Claude Desktop"
	Path    string
	Servers []string
	Problem string // why it cannot be read; empty when it can
}

// PlainError is a failure said in words: what went wrong, what to do about
// it, and the full text behind it for a bug report ("Copy details").
type PlainError struct {
	Summary string
	Fix     string
	Details string
}

func (e *PlainError) Error() string { return e.Summary }

// sentence is the summary and the fix, as one line of text.
func (e *PlainError) sentence() string {
	if e.Fix == "" {
		return e.Summary
	}
	return e.Summary + " " + e.Fix
}

// plain is err as a PlainError; an error the backend did not put in words
// keeps its text for the details.
func plain(err error) *PlainError {
	var pe *PlainError
	if errors.As(err, &pe) {
		return pe
	}
	return &PlainError{Summary: "Something went wrong.", Fix: "Copy the details to see what.", Details: err.Error()}
}

// joinSentences joins the non-empty parts with a space.
func joinSentences(parts ...string) string {
	return strings.Join(nonEmpty(parts), " ")
}

// SetupState is what the user has configured so far.
type SetupState struct {
	// ModelConfigured: the config names an orchestrator.
	ModelConfigured bool
	// Model is the orchestrator in use, to start the guide from; its
	// Preset is "" unless toolhub launches the server with a preset's
	// command.
	Model   ModelSetup
	Servers int // the user's own servers, not toolhub's
	Folders int // document folders
}

// ModelPreset is a way toolhub can start the orchestrator's server.
type ModelPreset struct {
	Name    string
	Command string // as one line, for people
	BaseURL string
	Model   string
	Needs   string
	// Installed: its program is on the PATH.
	Installed bool
	// GPU names the GPU found and its free memory, or says none was found.
	GPU string
}

// ModelSetup is the orchestrator the guide saves.
type ModelSetup struct {
	BaseURL string
	Model   string
	Preset  string // "" for a server the user runs; else a ModelPreset.Name
}
