package cli

import (
	"encoding/json"
	"testing"

	"github.com/toolhub/toolhub/bench"
)

func TestBenchEpisodeCounts(t *testing.T) {
	cases := []struct {
		mode                  string
		modelCalls, toolCalls int
	}{
		{"research", 2 * 2 * 3, 2 * 3}, // per turn: orchestrator + query writer, one search
		{"tools", 2 * 3, 2 * 3},        // per turn: orchestrator, one kv__get
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			code, stdout, stderr := runSub(t, newBenchEpisodeCommand, "", "--episodes", "2", "--turns", "3", "--mode", tc.mode, "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var rep bench.EpisodeReport
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatal(err)
			}
			if rep.Turns != 6 || rep.ModelCalls != tc.modelCalls || rep.ToolCalls != tc.toolCalls || rep.AllocsPerTurn <= 0 {
				t.Fatalf("report %+v", rep)
			}
		})
	}
}
