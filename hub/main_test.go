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
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}
