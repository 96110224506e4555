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

// needsHubSupport are scenarios toolhub cannot pass yet because the hub
// does not aggregate what they exercise, with the reason. When one starts
// passing through toolhub, remove it here. Every scenario of the suite
// passes through toolhub now.
var needsHubSupport = map[string]string{}

// TestConformanceThroughToolhub runs the official conformance suite against
// mcp-go's conformance fixture directly, then against toolhub serving the
// fixture as an unprefixed HTTP downstream, and requires every scenario that
// passes directly to pass through toolhub as well.
func TestConformanceThroughToolhub(t *testing.T) {
	conformance := testenv.NPMBin(t, "conformance")
	fixtureURL := startConformanceFixture(t)

	direct := runConformance(t, conformance, fixtureURL, "")
	// The fixture fronted by the real binary, exposed unprefixed, without a
	// token (the suite sends none; allowed on loopback only).
	config := writeFile(t, t.TempDir(), "config.json", fmt.Sprintf(
		`{"mcpServers": {"conformance": {"type": "http", "url": %q, "unprefixed": true}}}`, fixtureURL))
	hubURL := startToolhubHTTP(t, config, "--no-auth", "--expose", "direct")
	viaHub := runConformance(t, conformance, hubURL, "")

	t.Logf("scenarios passed: %d of %d directly, %d of %d through toolhub",
		countPassed(direct), len(direct), countPassed(viaHub), len(viaHub))
	for _, name := range sortedKeys(direct) {
		d, v := direct[name], viaHub[name]
		switch {
		case slices.Contains(flakyScenarios, name):
			continue
		case needsHubSupport[name] != "":
			if v.passed {
				t.Errorf("%s passes through toolhub now: remove it from needsHubSupport", name)
			} else {
				t.Logf("known gap: %s (%s)", name, needsHubSupport[name])
			}
		case d.passed && !v.passed:
			t.Errorf("%s passes directly but fails through toolhub: %s", name, v.failures)
		case !d.passed:
			t.Logf("%s fails directly too: %s", name, d.failures)
		}
	}
	for _, name := range flakyScenarios {
		passed := map[string]int{}
		var lastFailure string
		for range flakyTries {
			for _, target := range []struct{ name, url string }{{"directly", fixtureURL}, {"through toolhub", hubURL}} {
				res := runConformance(t, conformance, target.url, name)[name]
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

// scenarioResult is the outcome of one conformance scenario.
type scenarioResult struct {
	passed   bool
	failures string
}

var scenarioDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$`)

// runConformance runs the server suite (or one scenario) against url and
// reads every scenario's checks.json.
func runConformance(t *testing.T, bin, url, scenario string) map[string]scenarioResult {
	t.Helper()
	out := t.TempDir()
	args := []string{"server", "--url", url, "-o", out}
	if scenario != "" {
		args = append(args, "--scenario", scenario)
	}
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Dir = out
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
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
		t.Fatalf("conformance wrote no results for %s:\n%s", url, log)
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
	bin := filepath.Join(t.TempDir(), "fixture")
	build := exec.Command("go", "build", "-o", bin, "github.com/mark3labs/mcp-go/examples/conformance")
	build.Dir = testenv.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the conformance fixture (is it pinned in tools.go?): %v\n%s", err, out)
	}
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "CONFORMANCE_ADDR="+addr)
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
