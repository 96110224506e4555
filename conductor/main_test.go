package conductor

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when an episode leaves a goroutine
// behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
