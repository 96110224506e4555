package daemon_test

import (
	"os"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveToolhubBinary()
	os.Exit(code)
}
