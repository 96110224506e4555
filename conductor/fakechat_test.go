package conductor

import (
	"testing"

	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// startChat serves the scripted model answering every request with "hi"
// and a usage of 12 prompt and 3 completion tokens.
func startChat(t *testing.T) *scriptedmodel.Server {
	t.Helper()
	s := scriptedmodel.New(scriptedmodel.RawTextReply("hi").WithUsage(12, 3))
	s.SetLoop(true)
	t.Cleanup(s.Close)
	return s
}
