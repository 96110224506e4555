package conductor

import (
	"context"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

// TestToolBilledByTheSecond: a tool priced by the second (the python
// sandbox, protocol §6) costs its price per call plus its price per second
// of the call's wall time, in the step and in the run's totals.
func TestToolBilledByTheSecond(t *testing.T) {
	const perCall, perSecond = 0.25, 1000.0
	tools := newFakeTools(hub.ServerMeta{Name: "box", Locality: hub.LocalityLocal, CostPerCall: perCall, CostPerSecond: perSecond}, "run")
	eps, err := NewEpisodes(EpisodesConfig{Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	policy := &scriptPolicy{turns: [][]Action{{toolAct("box__run", `{}`), answerAct("done")}}}
	run, err := eps.Run(context.Background(), Task{Text: "t"}, policy)
	if err != nil {
		t.Fatal(err)
	}
	s := run.Steps[0]
	if s.Tool != "box__run" || s.Wall <= 0 {
		t.Fatalf("tool step %+v", s)
	}
	if want := perCall + perSecond*s.Wall.Seconds(); s.USD != want || run.Totals.USD != want {
		t.Fatalf("step USD %v, run %v; want %v for a call of %v", s.USD, run.Totals.USD, want, s.Wall)
	}
}
