package hub

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if faultyBuild.dir != "" {
		_ = os.RemoveAll(faultyBuild.dir)
	}
	os.Exit(code)
}
