package modelhost

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a supervisor, a drain or a
// health probe outlives Stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
