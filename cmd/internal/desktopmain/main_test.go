package desktopmain

import (
	"testing"

	"go.uber.org/goleak"
)

// Bleve, imported through the index, starts its analysis workers at init,
// and Fyne's app package its event queue.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		goleak.IgnoreTopFunction("github.com/blevesearch/bleve_index_api.AnalysisWorker"),
		goleak.IgnoreTopFunction("fyne.io/fyne/v2/internal/async.(*UnboundedChan[...]).processing"))
}
