package bench

import (
	"os"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

// TestMain removes the toolhub binary the proxy tests built.
func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveToolhubBinary()
	os.Exit(code)
}
