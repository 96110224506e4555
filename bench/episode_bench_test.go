package bench

import (
	"context"
	"testing"

	"github.com/toolhub/toolhub/conductor"
)

// TestRunEpisodeReport runs the benchmark small and logs the figures (go
// test -v -run RunEpisodeReport ./bench/).
func TestRunEpisodeReport(t *testing.T) {
	for _, mode := range []conductor.Mode{conductor.ModeResearch, conductor.ModeTools} {
		rep, err := RunEpisode(context.Background(), EpisodeOptions{Episodes: 3, Turns: 10, Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Turns != 30 {
			t.Fatalf("%s: %d turns, want 30", mode, rep.Turns)
		}
		t.Logf("%s: %v per turn, %.0f allocs, %.1f KiB per turn", mode, rep.PerTurn, rep.AllocsPerTurn, rep.BytesPerTurn/1024)
	}
}
