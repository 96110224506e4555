package policies

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a preferences watcher or a router leaves a goroutine
// behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
