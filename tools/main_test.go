package tools

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests when an idle index, a python run or
// a search leaves a goroutine behind. Bleve's analysis workers are started
// once per process by the library itself and are not ours to stop.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker"))
}
