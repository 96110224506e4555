package ui

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when a backend call, a change feed or
// a ticker outlives the window's Stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
