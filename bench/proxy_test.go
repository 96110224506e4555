package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

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
	toolhub := testenv.ToolhubBinary(t)
	for _, protocol := range []string{"", "2026-07-28"} {
		t.Run("protocol "+protocol, func(t *testing.T) {
			rep, err := RunProxy(t.Context(), ProxyOptions{
				Everything: everything, Toolhub: toolhub, Protocol: protocol, Calls: 30, Warmup: 5,
				InProcessCalls: 300, InProcessWorkers: 2, Concurrency: 3, Rounds: 2, Settle: time.Millisecond,
			})
			if err != nil {
				t.Fatal(err)
			}
			checkProxyReport(t, rep)
		})
	}
}

// TestProxyMeasuresTheComparedProxysProcess compares with another proxy
// (a second toolhub serve --http, started here) whose process is named:
// its memory is read as toolhub's is.
func TestProxyMeasuresTheComparedProxysProcess(t *testing.T) {
	everything := testenv.NPMBin(t, "mcp-server-everything")
	toolhub := testenv.ToolhubBinary(t)
	dir := t.TempDir()
	config := filepath.Join(dir, "config.json")
	body := `{"mcpServers": {"everything": {"command": ` + strconv.Quote(everything) + `, "args": ["stdio"]}}}`
	if err := os.WriteFile(config, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	url, pid := testenv.StartToolhubHTTPProcess(t, nil, "--config", config, "serve", "--http=127.0.0.1:0", "--token-file", tokenFile)
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := RunProxy(t.Context(), ProxyOptions{
		Everything: everything, Toolhub: toolhub, Calls: 30, Warmup: 5, InProcessCalls: 300, InProcessWorkers: 2,
		Concurrency: 3, Rounds: 2, Settle: time.Millisecond, CompareURL: url, CompareTool: "everything__echo",
		CompareToken: strings.TrimSpace(string(token)), ComparePID: pid,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Paths) != 4 {
		t.Fatalf("%d paths measured, want 4", len(rep.Paths))
	}
	for i, p := range rep.Paths {
		if p.Compared != (i == 3) {
			t.Errorf("%s: compared = %v", p.Name, p.Compared)
		}
	}
	if c := rep.Paths[3]; c.Latency.N != 30 || c.HubIdleRSS <= 0 || c.HubRSS <= 0 {
		t.Errorf("the compared proxy: %d calls, resident %d idle and %d after, want 30 calls and both read",
			c.Latency.N, c.HubIdleRSS, c.HubRSS)
	}
}

func TestProxyComparedProcessNeedsItsProxyAndMustExist(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts ProxyOptions
		want string
	}{
		{"no compared proxy", ProxyOptions{Everything: "e", ComparePID: os.Getpid()}, "needs the compared proxy's URL"},
		{"no such process", ProxyOptions{Everything: "e", CompareURL: "http://127.0.0.1:1/mcp", ComparePID: 1 << 30}, "the compared proxy's process"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := RunProxy(t.Context(), tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one saying %q", err, tc.want)
			}
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
