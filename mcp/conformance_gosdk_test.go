package mcp

import (
	"fmt"
	"os/exec"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// goSDKServerModfile pins the official Go SDK whose conformance server
// (conformance/everything-server) the test below runs: v1.8.0, which
// speaks 2026-07-28 and implements the scenarios of that revision that
// mcp-go's fixture lacks (the multi round-trip results above all).
const goSDKServerModfile = "go.v1.8.0.mod"

// TestConformanceGoSDKServerThroughToolhub runs the 2026-07-28
// requirements of the conformance suite's pre-release against the official
// Go SDK's conformance server directly, then through toolhub, which speaks
// 2026-07-28 to it, over each downstream transport. Every scenario that
// passes directly must pass through toolhub: its input requests reach the
// suite under their own keys and in one round, its requestState comes back
// to it untouched, it learns the suite's own capabilities from each
// request, and its refusals reach the suite as the JSON-RPC errors it sent.
func TestConformanceGoSDKServerThroughToolhub(t *testing.T) {
	nextConformance(t)
	bin := buildWithGoSDK(t, goSDKServerModfile, "github.com/modelcontextprotocol/go-sdk/conformance/everything-server")
	fixtureURL := startGoSDKConformanceServer(t, bin)
	suite := conformanceSuite{name: "0.2.0-alpha.12 2026-07-28", bin: nextConformance, args: []string{"--requirements", "2026-07-28"}}
	downstreams := []struct{ name, entry string }{
		{"http", fmt.Sprintf(`{"type": "http", "url": %q, "unprefixed": true}`, fixtureURL)},
		{"stdio", fmt.Sprintf(`{"command": %q, "unprefixed": true}`, bin)},
	}
	for _, ds := range downstreams {
		t.Run(ds.name+" downstream", func(t *testing.T) {
			config := writeFile(t, t.TempDir(), "config.json",
				fmt.Sprintf(`{"mcpServers": {"conformance": %s}}`, ds.entry))
			hubURL := startToolhubHTTP(t, config, "--no-auth", "--expose", "direct")
			runConformanceSuite(t, suite, fixtureURL, hubURL)
		})
	}
}

// startGoSDKConformanceServer runs the Go SDK's conformance server over
// stateless Streamable HTTP on a free loopback port and returns its URL.
func startGoSDKConformanceServer(t *testing.T, bin string) string {
	t.Helper()
	addr := fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
	return startFixture(t, exec.Command(bin, "-http", addr), addr)
}
