package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/eval"
)

// progressLines writes a stage's first and last lines always, and between
// them a line per tenth done at most every 5 s, by a clock the test moves.
func TestProgressLines(t *testing.T) {
	type step struct {
		stage       string
		done, total int
		after       time.Duration // the clock moves this much before the step
	}
	tests := []struct {
		name  string
		steps []step
		want  []string
	}{
		{"quick stage: its first and last line", []step{
			{"indexing", 0, 200, 0}, {"indexing", 20, 200, time.Millisecond}, {"indexing", 199, 200, time.Millisecond},
			{"indexing", 200, 200, time.Millisecond},
		}, []string{"indexing: 0/200", "indexing: 200/200"}},
		{"slow stage: a line per tenth, 5 s apart at most", []step{
			{"eval", 0, 20, 0}, {"eval", 1, 20, 6 * time.Second}, {"eval", 2, 20, 6 * time.Second},
			{"eval", 3, 20, time.Second}, {"eval", 4, 20, 5 * time.Second}, {"eval", 20, 20, time.Second},
		}, []string{"eval: 0/20", "eval: 2/20", "eval: 4/20", "eval: 20/20"}},
		{"each stage starts with a line", []step{
			{"training", 0, 1, 0}, {"training", 1, 1, 0}, {"scoring", 0, 3, 0}, {"scoring", 3, 3, 0},
		}, []string{"training: 0/1", "training: 1/1", "scoring: 0/3", "scoring: 3/3"}},
		{"the end is written once", []step{
			{"embedding", 10, 10, 0}, {"embedding", 10, 10, 10 * time.Second},
		}, []string{"embedding: 10/10"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			clock := time.Unix(1_700_000_000, 0)
			lines := &progressLines{w: &out, now: func() time.Time { return clock }}
			for _, s := range tt.steps {
				clock = clock.Add(s.after)
				lines.report(s.stage, s.done, s.total, "")
			}
			if got := strings.Split(strings.TrimSpace(out.String()), "\n"); strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("lines %q, want %q", got, tt.want)
			}
		})
	}
}

// A live eval's line carries its running accuracy and spend.
func TestEvalProgressLineCarriesTheFigures(t *testing.T) {
	var out strings.Builder
	bar := &evalBar{lines: &progressLines{w: &out}}
	bar.update(evalProgress(0, 4, 0, 0))
	bar.update(evalProgress(4, 4, 0.75, 0.0123))
	bar.finish()
	want := "eval: episodes: 0/4  acc 0.000  $0.0000\neval: episodes: 4/4  acc 0.750  $0.0123\n"
	if out.String() != want {
		t.Errorf("lines %q, want %q", out.String(), want)
	}
}

func evalProgress(done, total int, acc, usd float64) eval.Progress {
	return eval.Progress{Done: done, Total: total, Accuracy: acc, SpendUSD: usd}
}
