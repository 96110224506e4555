package bench

import (
	"runtime"
	"testing"
	"time"

	"github.com/toolhub/toolhub/internal/testenv"
)

// TestRunIdleMeasuresBothModes runs the real toolhub serve over stdio and
// over HTTP with no servers and reads each one's resident memory, on every
// system; on Linux it is split into anonymous and file pages that add up.
func TestRunIdleMeasuresBothModes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs toolhub twice")
	}
	reps, err := RunIdle(t.Context(), IdleOptions{Toolhub: testenv.ToolhubBinary(t), Settle: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || reps[0].Mode != "stdio" || reps[1].Mode != "http" {
		t.Fatalf("reports %+v, want stdio then http", reps)
	}
	for _, r := range reps {
		if r.RSS < 1<<20 || r.RSS > 1<<32 {
			t.Errorf("%s: resident %d bytes, want a process's size", r.Mode, r.RSS)
		}
		split := r.Anonymous > 0 && r.File >= 0 && r.Anonymous+r.File == r.RSS
		if split != (runtime.GOOS == "linux") {
			t.Errorf("%s on %s: anonymous %d + file %d of %d", r.Mode, runtime.GOOS, r.Anonymous, r.File, r.RSS)
		}
	}
}
