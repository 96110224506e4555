package mcp

import (
	"context"
	"fmt"
	"os"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"go.uber.org/goleak"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
)

// downstreamEnv makes the test binary serve the fixture over stdio instead
// of running tests, so a hub can spawn it as a real child process.
const downstreamEnv = "TOOLHUB_MCP_TEST_DOWNSTREAM"

// TestMain serves the fixture when asked to, and otherwise fails the
// package's tests when a session, relay or call leaves a goroutine behind.
func TestMain(m *testing.M) {
	if os.Getenv(downstreamEnv) == "1" {
		os.Exit(serveFixtureOverStdio())
	}
	code := m.Run()
	testenv.RemoveToolhubBinary()
	removeGoSDKClients()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// serveFixtureOverStdio serves the fixture plus "vanish", a tool whose call
// kills the process before it answers.
func serveFixtureOverStdio() int {
	f := newFixture()
	f.srv.AddTool(mcpgo.NewTool("vanish", mcpgo.WithDescription("Exit in the middle of the call.")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			os.Exit(3)
			return nil, nil
		})
	if err := mcpserver.ServeStdio(f.srv); err != nil {
		fmt.Fprintln(os.Stderr, "fixture:", err)
		return 1
	}
	return 0
}

// childSpec is a stdio downstream running this test binary as the fixture.
func childSpec(t *testing.T, name string) hub.ServerSpec {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return hub.ServerSpec{
		Name: name, Transport: hub.TransportStdio, Command: exe,
		Env: map[string]string{downstreamEnv: "1"}, Locality: hub.LocalityLocal,
	}
}
