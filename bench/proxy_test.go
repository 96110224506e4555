package bench

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

func TestInProcessEchoCountsEveryCall(t *testing.T) {
	rep, err := RunInProcessEcho(t.Context(), 2000, 4)
	if err != nil {
		t.Fatal(err)
	}
	if rep.HubLatency.N != 2000 || rep.SurfaceLatency.N != 2000 {
		t.Errorf("measured %d hub and %d surface calls, want 2000 each", rep.HubLatency.N, rep.SurfaceLatency.N)
	}
	if rep.HubCallsPerSec <= 0 || rep.SurfaceCallsPerSec <= 0 || rep.Workers != 4 || rep.Cores <= 0 {
		t.Errorf("report = %+v", rep)
	}
}

func TestProxyMeasuresAllThreePaths(t *testing.T) {
	everything := testenv.NPMBin(t, "mcp-server-everything")
	toolhub := filepath.Join(t.TempDir(), "toolhub")
	build := exec.Command("go", "build", "-o", toolhub, "github.com/toolhub/toolhub/cmd/toolhub")
	build.Dir = testenv.RepoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build toolhub: %v\n%s", err, out)
	}
	for _, protocol := range []string{"", "2026-07-28"} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			rep, err := RunProxy(t.Context(), ProxyOptions{
				Everything: everything, Toolhub: toolhub, Protocol: protocol, Calls: 30, Warmup: 5,
				InProcessCalls: 300, InProcessWorkers: 2, Concurrency: 3, Rounds: 2,
			})
			if err != nil {
				t.Fatal(err)
			}
			checkProxyReport(t, rep)
		})
	}
}

func TestProxyRefusesAnUnknownProtocol(t *testing.T) {
	_, err := RunProxy(t.Context(), ProxyOptions{Everything: "server-everything", Protocol: "2099-01-01"})
	if err == nil || !strings.Contains(err.Error(), "2099-01-01") {
		t.Errorf("err = %v, want the unknown protocol named", err)
	}
}

func checkProxyReport(t *testing.T, rep *ProxyReport) {
	t.Helper()
	if len(rep.Paths) != 3 {
		t.Fatalf("%d paths measured, want 3", len(rep.Paths))
	}
	for i, p := range rep.Paths {
		if p.Latency.N != 30 || p.CallsPerSec <= 0 {
			t.Errorf("%s: %d calls at %.0f/s, want 30", p.Name, p.Latency.N, p.CallsPerSec)
		}
		if c := p.Concurrent; c == nil || c.Callers != 3 || c.Latency.N != 60 || c.CallsPerSec <= 0 {
			t.Errorf("%s: concurrent rounds %+v, want 3 callers and 60 calls", p.Name, c)
		}
		hub := i > 0
		if hub != (p.HubRSS > 0 && p.HubIdleRSS > 0) {
			t.Errorf("%s: hub RSS idle %d, after %d", p.Name, p.HubIdleRSS, p.HubRSS)
		}
	}
	if rep.Paths[0].P50Ratio != 1 {
		t.Errorf("the direct path's ratio to itself is %v", rep.Paths[0].P50Ratio)
	}
}
