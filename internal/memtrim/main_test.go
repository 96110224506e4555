package memtrim

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a Watch outlives its context.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
