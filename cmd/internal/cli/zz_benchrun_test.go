package cli

import (
	"os"
	"strings"
	"testing"
)

func TestZZBenchRun(t *testing.T) {
	args := strings.Fields(os.Getenv("BENCH_ARGS"))
	code, out, errOut := runSub(t, newBenchRetrievalCommand, "", args...)
	t.Logf("exit %d\n%s\n%s", code, out, errOut)
}
