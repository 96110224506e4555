package eval

import (
	"strings"
	"testing"
)

func TestReplayNotesSayHowLatencyWasHad(t *testing.T) {
	models := []ReplayModel{{Name: "a", PriceIn: 1, PriceOut: 1, SizeB: 7}, {Name: "b", PriceIn: 2, PriceOut: 2, SizeB: 70}}
	row := func(id string, latency map[string]float64) ReplayRow {
		return ReplayRow{ID: id, Question: "q " + id, Scores: map[string]float64{"a": 1, "b": 0}, LatencyS: latency}
	}
	cases := []struct {
		name    string
		test    []ReplayRow
		want    string
		notWant string
	}{
		{"every latency recorded", []ReplayRow{row("t1", map[string]float64{"a": 1, "b": 2}), row("t2", map[string]float64{"a": 3, "b": 4})},
			"every answer's latency is recorded", LatencyModelNote},
		{"one latency missing", []ReplayRow{row("t1", map[string]float64{"a": 1, "b": 2}), row("t2", map[string]float64{"a": 3})},
			LatencyModelNote, "every answer's latency is recorded"},
		{"none recorded", []ReplayRow{row("t1", nil)}, LatencyModelNote, "every answer's latency is recorded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			set := &ReplaySet{Models: models, Train: []ReplayRow{row("r1", nil)}, Test: tc.test}
			notes := strings.Join(replayNotes(set), "\n")
			if !strings.Contains(notes, tc.want) || strings.Contains(notes, tc.notWant) {
				t.Fatalf("notes:\n%s\nwant %q and not %q", notes, tc.want, tc.notWant)
			}
		})
	}
}
