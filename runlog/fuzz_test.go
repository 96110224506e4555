package runlog

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/toolhub/toolhub/conductor"
)

// FuzzDecodeRecord feeds stored records of any shape: decoding never
// panics, and a record it accepts refers only to steps it has.
func FuzzDecodeRecord(f *testing.F) {
	if v1, err := os.ReadFile("testdata/v1_run.json"); err == nil {
		f.Add(v1)
	}
	rec, _ := newRecord(bodiedRun("r"))
	v2, _ := json.Marshal(rec)
	f.Add(v2)
	f.Add([]byte(`{"log_version":2,"steps":[{}],"bodies":[{"step":0,"reply":"00"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := decodeRecord(data)
		if err != nil {
			return
		}
		for _, ref := range rec.Bodies {
			_ = rec.Steps[ref.Step] // in range, or decodeRecord let it through
		}
	})
}

// FuzzExportBodies feeds recorded bodies of any shape (a reply body is what
// a model server sent): the export never panics and always encodes.
func FuzzExportBodies(f *testing.F) {
	run := toolModeRun()
	f.Add(run.Steps[0].Request, run.Steps[0].Reply)
	f.Add([]byte(`{"messages":[{"role":"user"}],"tools":null}`), []byte(`{"choices":[{"message":{"role":"assistant"}}]}`))
	f.Add([]byte(`{"messages":[{}]}`), []byte(`{"choices":[{"message":"x"}]}`))
	f.Fuzz(func(t *testing.T, request, reply []byte) {
		run := &conductor.Run{ID: "f"}
		run.Add(conductor.Step{Kind: conductor.StepModel, Alias: orchestratorAlias, Request: request, Reply: reply,
			ToolCalls: json.RawMessage(reply)})
		for _, tr := range append(ExportTurns(run), ExportTrajectory(run)) {
			if _, err := json.Marshal(tr); err != nil {
				t.Fatalf("export does not encode: %v", err)
			}
		}
	})
}
