package hub

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/testenv"
)

// waitLimit bounds every wait in these tests; reaching it is a failure, not
// a measurement.
const waitLimit = 30 * time.Second

// repoRoot is the directory holding go.mod.
func repoRoot(t testing.TB) string { return testenv.RepoRoot(t) }

// npmBin is the path of an npm test server's binary under .tools. Under
// -short the test is skipped; without .tools it fails.
func npmBin(t *testing.T, name string) string { return testenv.NPMBin(t, name) }

// testdataBuild is one server under testdata, built once per test binary;
// TestMain removes its directory.
type testdataBuild struct {
	name string
	once sync.Once
	dir  string
	path string
	err  error
}

// fixtureBuilds are the servers built from testdata.
var (
	faultyBuild   = &testdataBuild{name: "faultyserver"}
	modernBuild   = &testdataBuild{name: "modernserver"}
	fixtureBuilds = []*testdataBuild{faultyBuild, modernBuild}
)

// binary builds ./testdata/<name> on first use and returns its path.
func (b *testdataBuild) binary(t testing.TB) string {
	t.Helper()
	b.once.Do(func() {
		b.dir, b.err = os.MkdirTemp("", b.name+"-")
		if b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, testenv.Exe(b.name))
		cmd := exec.Command("go", "build", "-o", b.path, "./testdata/"+b.name)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build %s: %w\n%s", b.name, err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

func faultyServerPath(t testing.TB) string { return faultyBuild.binary(t) }

// faultySpec describes the faulty server in mode; it records its pids in the
// returned file.
func faultySpec(t *testing.T, name, mode string, extraArgs ...string) (ServerSpec, string) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pids")
	args := append([]string{"-mode", mode, "-pidfile", pidfile}, extraArgs...)
	return ServerSpec{
		Name:      name,
		Transport: TransportStdio,
		Command:   faultyServerPath(t),
		Args:      args,
		Locality:  LocalityLocal,
	}, pidfile
}

// testOptions are downstream options with short delays.
func testOptions() downstreamOptions {
	return downstreamOptions{
		Logger:           slog.New(slog.NewTextHandler(io.Discard, nil)),
		Restart:          RestartPolicy{BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond},
		ConnectTimeout:   10 * time.Second,
		StopGrace:        500 * time.Millisecond,
		ListChangedQuiet: 50 * time.Millisecond,
	}
}

// recorder is a hand-written fake for the downstream callbacks.
type recorder struct {
	mu        sync.Mutex
	states    []ServerStatus
	toolLoads [][]RawTool
	notes     []mcpgo.JSONRPCNotification
}

func (r *recorder) wire(opts downstreamOptions) downstreamOptions {
	opts.OnState = func(st ServerStatus) {
		r.mu.Lock()
		r.states = append(r.states, st)
		r.mu.Unlock()
	}
	opts.OnTools = func(_ string, tools []RawTool) {
		r.mu.Lock()
		r.toolLoads = append(r.toolLoads, tools)
		r.mu.Unlock()
	}
	opts.OnNotification = func(_ string, n mcpgo.JSONRPCNotification) {
		r.mu.Lock()
		r.notes = append(r.notes, n)
		r.mu.Unlock()
	}
	return opts
}

func (r *recorder) loads() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.toolLoads)
}

// sawState reports whether the downstream entered state with a LastError
// containing reason.
func (r *recorder) sawState(state ServerState, reason string) bool {
	for _, st := range r.allStates() {
		if st.State == state && strings.Contains(st.LastError, reason) {
			return true
		}
	}
	return false
}

func (r *recorder) allStates() []ServerStatus {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ServerStatus(nil), r.states...)
}

func (r *recorder) notifications() []mcpgo.JSONRPCNotification {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]mcpgo.JSONRPCNotification(nil), r.notes...)
}

// runningDownstream is a downstream whose Run goroutine the test owns.
type runningDownstream struct {
	*downstream
	rec  *recorder
	done chan struct{}
}

func runDownstream(t *testing.T, spec ServerSpec, opts downstreamOptions) *runningDownstream {
	t.Helper()
	rec := &recorder{}
	r := &runningDownstream{downstream: newDownstream(spec, rec.wire(opts)), rec: rec, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		r.Run(t.Context())
	}()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop stops the downstream and waits for Run to finish its cleanup.
func (r *runningDownstream) stop(t *testing.T) {
	t.Helper()
	r.Stop()
	select {
	case <-r.done:
	case <-time.After(waitLimit):
		t.Fatalf("Run did not return after Stop")
	}
}

// waitState waits until the downstream is in state.
func (r *runningDownstream) waitState(t *testing.T, state ServerState) ServerStatus {
	t.Helper()
	var st ServerStatus
	waitUntil(t, fmt.Sprintf("%s to be %s", r.spec.Name, state), func() bool {
		st = r.Status()
		return st.State == state
	}, func() string { return fmt.Sprintf("status %+v", r.Status()) })
	return st
}

// waitUntil polls cond until it holds or waitLimit passes.
func waitUntil(t *testing.T, what string, cond func() bool, explain func() string) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: gave up; %s", what, explain())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readPids reads the pids a faulty server recorded.
func readPids(t *testing.T, pidfile string) []int {
	t.Helper()
	data, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatalf("read pidfile: %v", err)
	}
	var pids []int
	for _, field := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(field)
		if err != nil {
			t.Fatalf("pidfile holds %q", field)
		}
		pids = append(pids, pid)
	}
	return pids
}

// assertProcessesGone checks that every pid is gone (processGone). An
// orphaned grandchild is reaped by init shortly after it dies, so
// the check waits for that.
func assertProcessesGone(t *testing.T, pids []int) {
	t.Helper()
	if len(pids) == 0 {
		t.Fatal("no pids to check")
	}
	for _, pid := range pids {
		waitUntil(t, fmt.Sprintf("process %d to be gone", pid), func() bool {
			return testenv.ProcessGone(pid)
		}, func() string {
			stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
			return "it is still there: " + string(stat)
		})
	}
}

// resultText joins the text items of a tools/call result.
func resultText(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var result struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	var texts []string
	for _, c := range result.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n")
}
