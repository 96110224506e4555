package runlog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
)

// researchRun is a research-mode run of n turns: each orchestrator request
// about 6 KB, an expert call per turn, and every other turn re-sending the
// previous prompt (a reply without a valid call changes nothing).
func researchRun(id string, n int) *conductor.Run {
	run := &conductor.Run{ID: id, Task: "q", Mode: conductor.ModeResearch, Policy: "orchestrator", Status: conductor.RunAnswered}
	docs := strings.Repeat("Doc 1: some retrieved passage text. ", 160)
	for turn := 1; turn <= n; turn++ {
		evidence := docs[:len(docs)*(turn/2+1)/(n/2+1)]
		req := fmt.Sprintf(`{"model":"o","messages":[{"role":"system","content":"You are good at using tools."},{"role":"user","content":%q}]}`, "Problem: q\n\n"+evidence)
		run.Add(conductor.Step{Turn: turn, Kind: conductor.StepModel, Alias: "orchestrator", Request: []byte(req),
			Reply: []byte(fmt.Sprintf(`{"id":"c%d","choices":[{"message":{"role":"assistant","content":"<think>t</think>"}}]}`, turn))})
		query := fmt.Sprintf(`{"model":"e","messages":[{"role":"user","content":%q}]}`, evidence+"\n\nQuestion: q\nWrite a query.")
		run.Add(conductor.Step{Turn: turn, Kind: conductor.StepModel, Alias: "search-1", Request: []byte(query),
			Reply: []byte(fmt.Sprintf(`{"id":"e%d","choices":[{"message":{"role":"assistant","content":"<query>x</query>"}}]}`, turn))})
	}
	return run
}

// BenchmarkRunLogPutGet stores and reads back a 20-turn research run with
// its bodies, under a new id each time (later runs find their bodies
// stored already, as a replay or a repeated task does); raw/stored-bytes is
// how much smaller the run's distinct bodies are than all its bodies.
func BenchmarkRunLogPutGet(b *testing.B) {
	l, err := OpenRunLog(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	run := researchRun("", 20)
	raw := 0
	for _, s := range run.Steps {
		raw += len(s.Request) + len(s.Reply)
	}
	_, bodies := newRecord(run)
	distinct := 0
	for _, body := range bodies {
		distinct += len(body)
	}
	b.ResetTimer()
	for i := range b.N {
		run.ID = fmt.Sprintf("20260101T000000-%08d", i)
		if err := l.Put(run); err != nil {
			b.Fatal(err)
		}
		if _, err := l.Get(run.ID); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(raw)/float64(distinct), "raw/stored-bytes")
}
