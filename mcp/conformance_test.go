package mcp

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// flakyScenarios lose their last notification now and then in mcp-go
// itself (#969), in the fixture's server: through toolhub a notification
// the fixture did send is never lost (TestEveryProgressArrivesBeforeTheResult),
// but one the fixture dropped cannot be made up. They are run flakyTries
// times directly and through toolhub and the pass counts reported.
var flakyScenarios = []string{"tools-call-with-logging", "tools-call-with-progress"}

const flakyTries = 5

// conformanceSuite is one run of the official conformance suite: a release
// of it, the arguments that choose its scenarios, and the scenarios toolhub
// cannot pass yet because the hub does not aggregate what they exercise,
// with the reason. When one starts passing through toolhub, remove it from
// needsHubSupport.
type conformanceSuite struct {
	name            string
	bin             func(t *testing.T) string
	args            []string
	needsHubSupport map[string]string
}

var conformanceSuites = []conformanceSuite{
	// Every scenario of the stable suite passes through toolhub.
	{name: "0.1.16", bin: stableConformance},
	{name: "0.2.0-alpha.12 active", bin: nextConformance},
	{name: "0.2.0-alpha.12 2026-07-28", bin: nextConformance, args: []string{"--requirements", "2026-07-28"}},
}

func stableConformance(t *testing.T) string { return testenv.NPMBin(t, "conformance") }

// nextConformance is the pre-release line, installed beside the stable one
// under .tools/next (both name their command "conformance").
func nextConformance(t *testing.T) string {
	t.Helper()
	stableConformance(t) // skipped under -short like the stable suite
	p := filepath.Join(testenv.RepoRoot(t), ".tools", "next", "node_modules", ".bin", "conformance")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is missing: run scripts/install-tools.sh (make setup)", p)
	}
	return p
}

// TestConformanceThroughToolhub runs each release of the official
// conformance suite against mcp-go's conformance fixture directly, then
// against toolhub serving the fixture as an unprefixed HTTP downstream, and
// requires every scenario that passes directly to pass through toolhub as
// well. Each scenario's outcome is logged.
func TestConformanceThroughToolhub(t *testing.T) {
	stableConformance(t)
	fixtureURL := startConformanceFixture(t)
	// The fixture fronted by the real binary, exposed unprefixed, without a
	// token (the suite sends none; allowed on loopback only). Its tools ask
	// for sampling and elicitation with server-initiated requests, which
	// mcp-go refuses on a 2026-07-28 connection, so toolhub is told to
	// keep to the handshake with it, as the log advises.
	config := writeFile(t, t.TempDir(), "config.json", fmt.Sprintf(
		`{"mcpServers": {"conformance": {"type": "http", "url": %q, "unprefixed": true, "protocol": "2025-11-25"}}}`, fixtureURL))
	hubURL := startToolhubHTTP(t, config, "--no-auth", "--expose", "direct")
	for _, suite := range conformanceSuites {
		t.Run(suite.name, func(t *testing.T) { runConformanceSuite(t, suite, fixtureURL, hubURL) })
	}
}

func runConformanceSuite(t *testing.T, suite conformanceSuite, fixtureURL, hubURL string) {
	conformance := suite.bin(t)
	direct := runConformance(t, conformance, fixtureURL, suite.args)
	viaHub := runConformance(t, conformance, hubURL, suite.args)
	t.Logf("scenarios passed: %d of %d directly, %d of %d through toolhub",
		countPassed(direct), len(direct), countPassed(viaHub), len(viaHub))
	for _, name := range sortedKeys(direct) {
		d, v := direct[name], viaHub[name]
		t.Logf("%-45s directly %-4s through toolhub %s", name, passWord(d), passWord(v))
		switch {
		case slices.Contains(flakyScenarios, name):
			continue
		case suite.needsHubSupport[name] != "":
			if v.passed {
				t.Errorf("%s passes through toolhub now: remove it from needsHubSupport", name)
			} else {
				t.Logf("known gap: %s (%s)", name, suite.needsHubSupport[name])
			}
		case d.passed && !v.passed:
			t.Errorf("%s passes directly but fails through toolhub: %s", name, v.failures)
		case !d.passed:
			t.Logf("%s fails directly too: %s", name, d.failures)
		}
	}
	for _, name := range flakyScenarios {
		if _, ok := direct[name]; !ok {
			continue
		}
		passed := map[string]int{}
		var lastFailure string
		for range flakyTries {
			for _, target := range []struct{ name, url string }{{"directly", fixtureURL}, {"through toolhub", hubURL}} {
				res := runConformance(t, conformance, target.url, []string{"--scenario", name})[name]
				if res.passed {
					passed[target.name]++
				} else {
					lastFailure = res.failures
				}
			}
		}
		t.Logf("flaky %s passed %d of %d tries directly, %d of %d through toolhub (last failure: %s)",
			name, passed["directly"], flakyTries, passed["through toolhub"], flakyTries, lastFailure)
	}
}

func passWord(r scenarioResult) string {
	if r.passed {
		return "pass"
	}
	return "FAIL"
}

// scenarioResult is the outcome of one conformance scenario.
type scenarioResult struct {
	passed   bool
	failures string
}

var scenarioDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$`)

// runConformance runs the server suite, with extra arguments choosing its
// scenarios, against url and reads every scenario's checks.json.
func runConformance(t *testing.T, bin, url string, extra []string) map[string]scenarioResult {
	t.Helper()
	out := t.TempDir()
	args := append([]string{"server", "--url", url, "-o", out}, extra...)
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Dir = out
	// The suite needs Node 22: the Node of .tools first.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(testenv.NPMBin(t, "node"))+string(os.PathListSeparator)+os.Getenv("PATH"))
	log, _ := cmd.CombinedOutput() // exits 1 whenever a check fails; the files say which
	results := map[string]scenarioResult{}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		m := scenarioDir.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		results[m[1]] = readChecks(t, filepath.Join(out, e.Name(), "checks.json"))
	}
	if len(results) == 0 {
		t.Fatalf("conformance wrote no results for %s:\n%s", url, lastBytes(log, 2000))
	}
	return results
}

func readChecks(t *testing.T, path string) scenarioResult {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var checks []struct {
		ID           string `json:"id"`
		Status       string `json:"status"`
		ErrorMessage string `json:"errorMessage"`
	}
	if err := json.Unmarshal(data, &checks); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	res := scenarioResult{passed: true}
	var failures []string
	for _, c := range checks {
		if c.Status == "FAILURE" {
			res.passed = false
			failures = append(failures, c.ID+": "+c.ErrorMessage)
		}
	}
	res.failures = strings.Join(failures, "; ")
	return res
}

// startConformanceFixture builds and runs mcp-go's conformance server on a
// free loopback port and returns its /mcp URL.
func startConformanceFixture(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), testenv.Exe("fixture"))
	build := exec.Command("go", "build", "-o", bin, "github.com/mark3labs/mcp-go/examples/conformance")
	build.Dir = testenv.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the conformance fixture (is it pinned in tools.go?): %v\n%s", err, out)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "CONFORMANCE_ADDR="+addr)
	return startFixture(t, cmd, addr)
}

// startFixture starts cmd, a server that listens on addr, stops it at
// cleanup, and returns its /mcp URL once it listens.
func startFixture(t *testing.T, cmd *exec.Cmd, addr string) string {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	testenv.WaitListening(t, addr, waitLimit)
	return "http://" + addr + "/mcp"
}

func countPassed(r map[string]scenarioResult) int {
	n := 0
	for _, s := range r {
		if s.passed {
			n++
		}
	}
	return n
}

func sortedKeys(r map[string]scenarioResult) []string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// lastBytes is the end of out, at most n bytes of it.
func lastBytes(out []byte, n int) []byte {
	if len(out) > n {
		return out[len(out)-n:]
	}
	return out
}
