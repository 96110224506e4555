package ui

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
)

// fakeBackend is a hand-written Backend over in-memory state. Every method
// notes the goroutine it ran on, so tests can check that none ran on the
// UI goroutine.
type fakeBackend struct {
	mu         sync.Mutex
	prefs      Preferences
	saves      int
	tools      map[string]bool // tool name -> remote
	models     map[string]bool
	servers    []ServerInfo
	restarted  []string
	added      []string
	runs       []RunDetail
	goroutines map[int64]int // goroutine id -> backend calls made on it

	// ingestGate, when set, holds the ingest after its first progress report.
	ingestGate chan struct{}
	// failWith, when set, is the error Ingest, Search and Run fail with.
	failWith error
	// runGate, when set, holds a run after its first two steps until ctx ends
	// or the gate is closed.
	runGate chan struct{}
	runCtx  context.Context //nolint:containedctx // the held run's, for the test to watch
	// runSteps and runForced, when set, replace the run's two steps and
	// mark its answer as the fallback's.
	runSteps  []RunStep
	runForced bool
	// detailGate, when set, holds RunDetail until closed; details counts answers.
	detailGate chan struct{}
	details    int
	// changes carries what push reports to Changes.
	changes chan Change
	// clients are what ClientConfigs finds; removed and replaced record
	// the edits; refuse, when set, is what the edits answer.
	clients  []ClientConfig
	removed  []string
	replaced map[string]string
	refuse   error
	guide    fakeGuide
	// signedIn lists the servers signed in to.
	signedIn []string
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{
		prefs:  Preferences{Privacy: PrivacyAny, CostWeight: 0.3, LatencyWeight: 0.2, Tools: map[string]Weight{}, Models: map[string]Weight{}},
		tools:  map[string]bool{"search_documents": false, "github__search_code": true, "python": false},
		models: map[string]bool{"qwen-local": false, "gpt-5": true},
		servers: []ServerInfo{
			{Name: "github", Kind: "server", Health: HealthOK, State: "ready", Locality: "remote", Tools: 2, Enabled: true,
				ToolList: []ToolInfo{{Name: "search_code", Description: "Searches code on GitHub."}, {Name: "get_issue", Description: "Reads one issue."}}},
			{Name: "flaky", Kind: "server", Health: HealthFailed, State: "failed", Locality: "local", Enabled: true,
				LastError: "exited with status 1", StderrTail: "line 1\nboom: no such module"},
			{Name: "gpt-5", Kind: "model", Health: HealthOK, State: "configured", Locality: "remote", Cost: "$1.25/M in", Enabled: true},
		},
		goroutines: map[int64]int{},
		replaced:   map[string]string{},
		// set up already: the guide opens by itself only in its own tests
		guide: fakeGuide{setup: SetupState{ModelConfigured: true, Servers: 2}},
	}
}

// note records the calling goroutine.
func (f *fakeBackend) note() {
	id := goroutineID()
	f.mu.Lock()
	f.goroutines[id]++
	f.mu.Unlock()
}

func (f *fakeBackend) detailsServed() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.details
}

func (f *fakeBackend) calledOn(id int64) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.goroutines[id]
}

// goroutineID parses the current goroutine's number from its stack header.
func goroutineID() int64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	field := bytes.Fields(bytes.TrimPrefix(buf, []byte("goroutine ")))[0]
	var id int64
	fmt.Sscan(string(field), &id)
	return id
}

func (f *fakeBackend) Endpoint() Endpoint {
	f.note()
	return Endpoint{URL: "http://127.0.0.1:8765/mcp", State: "listening", Snippets: []ClientSnippet{
		{Client: "Claude Desktop", Text: `{"mcpServers":{"toolhub":{"url":"http://127.0.0.1:8765/mcp"}}}`},
		{Client: "claude mcp add", Text: "claude mcp add --transport http toolhub http://127.0.0.1:8765/mcp"},
	}}
}

func (f *fakeBackend) OrchestratorHealth(context.Context) OrchestratorHealth {
	f.note()
	return OrchestratorHealth{Reachable: true, Model: "Orchestrator-8B", GPU: "RTX 4090", Memory: "17.1 GB"}
}

func (f *fakeBackend) Preferences(context.Context) (Preferences, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prefs.clone(), nil
}

func (f *fakeBackend) SavePreferences(_ context.Context, p Preferences) error {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.prefs, f.saves = p.clone(), f.saves+1
	return nil
}

func (f *fakeBackend) saved() (Preferences, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.prefs.clone(), f.saves
}

// Preview allows what privacy and the weights allow, like the hub's guard.
func (f *fakeBackend) Preview(_ context.Context, p Preferences) (PreferencesPreview, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	pv := PreferencesPreview{Sentence: fmt.Sprintf("Privacy %s, cost weight %.2f, latency weight %.2f.", p.Privacy, p.CostWeight, p.LatencyWeight)}
	pv.AllTools, pv.AllowedTools = allowed(f.tools, p.Tools, p.Privacy)
	pv.AllModels, pv.AllowedModels = allowed(f.models, p.Models, p.Privacy)
	return pv, nil
}

func allowed(remote map[string]bool, weights map[string]Weight, privacy Privacy) (all, ok []string) {
	for name, isRemote := range remote {
		all = append(all, name)
		if weights[name] != WeightOff && !(isRemote && privacy == PrivacyLocalOnly) {
			ok = append(ok, name)
		}
	}
	slices.Sort(all)
	slices.Sort(ok)
	return all, ok
}

func (f *fakeBackend) Servers(context.Context) ([]ServerInfo, error) {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.servers), nil
}

func (f *fakeBackend) SetServerEnabled(_ context.Context, name string, on bool) error {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.servers {
		if f.servers[i].Name == name {
			f.servers[i].Enabled = on
			f.servers[i].Health, f.servers[i].State = HealthOff, "stopped"
			return nil
		}
	}
	return fmt.Errorf("no server %q", name)
}

func (f *fakeBackend) RestartServer(_ context.Context, name string) error {
	f.note()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.restarted = append(f.restarted, name)
	return nil
}

func (f *fakeBackend) DocumentRoots(context.Context) ([]string, error) {
	f.note()
	return []string{"/home/me/notes"}, nil
}

// Ingest reports four files; with ingestGate set it holds after the first.
func (f *fakeBackend) Ingest(ctx context.Context, paths []string, progress func(IngestProgress)) (IngestSummary, error) {
	f.note()
	if f.failWith != nil {
		return IngestSummary{}, f.failWith
	}
	for i := 1; i <= 4; i++ {
		progress(IngestProgress{Done: i, Total: 4, Path: fmt.Sprintf("%s/file%d.md", paths[0], i)})
		if i == 1 && f.ingestGate != nil {
			select {
			case <-f.ingestGate:
			case <-ctx.Done():
				return IngestSummary{}, ctx.Err()
			}
		}
	}
	return IngestSummary{Indexed: 4, Chunks: 9}, nil
}

func (f *fakeBackend) IndexStats(context.Context) (IndexStats, error) {
	f.note()
	return IndexStats{Documents: 4, Chunks: 9, Bytes: 12000}, nil
}

func (f *fakeBackend) Search(_ context.Context, q string, k int) ([]SearchHit, error) {
	f.note()
	if f.failWith != nil {
		return nil, f.failWith
	}
	return []SearchHit{{Path: "/home/me/notes/launch.md", Heading: "Q3", Score: 1.5, Snippet: "the **" + q + "** plan"}}, nil
}
