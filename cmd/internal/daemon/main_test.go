package daemon_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/internal/testenv"
)

// TestMain removes the toolhub binary the tests built and fails them when
// a daemon leaves a goroutine behind after Close. Bleve's analysis
// workers are started once per process by the library itself.
func TestMain(m *testing.M) {
	// The daemon opens the secret store beside each test's config: keep it
	// a file in the test's folder, never the user's keychain.
	os.Setenv(daemon.SecretsBackendEnv, "file")
	code := m.Run()
	testenv.RemoveToolhubBinary()
	if code == 0 {
		if err := goleak.Find(goleak.IgnoreTopFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker")); err != nil {
			fmt.Fprintln(os.Stderr, "goroutines left behind:", err)
			code = 1
		}
	}
	os.Exit(code)
}
