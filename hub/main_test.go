package hub

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain removes the fixture build and fails the package's tests when a
// supervised server, call or watcher leaves a goroutine behind.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, b := range fixtureBuilds {
		if b.dir != "" {
			_ = os.RemoveAll(b.dir)
		}
	}
	if code == 0 {
		// An mcp-go server used as a task-running fixture forgets each
		// task after its TTL, in a goroutine of its own that sleeps until
		// then; it is the fixture's, not the hub's.
		if err := goleak.Find(goleak.IgnoreAnyFunction("github.com/mark3labs/mcp-go/server.(*MCPServer).scheduleTaskCleanup")); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}
