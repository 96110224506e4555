package runlog

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/toolhub/toolhub/conductor"
)

// bodiedRun is a two-turn run whose second orchestrator request repeats the
// expert's request body, as bodies do across turns and runs.
func bodiedRun(id string) *conductor.Run {
	run := &conductor.Run{ID: id, Task: "2+2?", Mode: conductor.ModeResearch, Policy: "orchestrator", Status: conductor.RunAnswered, Answer: "4"}
	run.Add(conductor.Step{Turn: 1, Kind: conductor.StepModel, Alias: "orchestrator",
		Request: []byte(`{"model":"o","messages":[{"role":"user","content":"Problem: 2+2?"}]}`), Reply: []byte(`{"choices":[{"message":{"role":"assistant","content":"a"}}]}`)})
	run.Add(conductor.Step{Turn: 1, Kind: conductor.StepModel, Alias: "answer-1", Request: []byte(`{"shared":true}`), Reply: []byte(`{"shared":true}`)})
	run.Add(conductor.Step{Turn: 2, Kind: conductor.StepObservation, Text: "note"})
	return run
}

func countKeys(t *testing.T, l *RunLog, prefix string) int {
	t.Helper()
	n := 0
	err := l.db.View(func(txn *badger.Txn) error {
		opts := badger.DefaultIteratorOptions
		opts.Prefix = []byte(prefix)
		it := txn.NewIterator(opts)
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRunLogStoresEachBodyOnceAndGivesItBack(t *testing.T) {
	l, err := OpenRunLog(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, b := bodiedRun("20260101T000000-aa"), bodiedRun("20260101T000000-bb")
	for _, run := range []*conductor.Run{a, b} {
		if err := l.Put(run); err != nil {
			t.Fatal(err)
		}
	}
	if len(a.Steps[0].Request) == 0 {
		t.Fatal("Put emptied the caller's run")
	}
	// Two runs with the same three distinct bodies: three stored.
	if n := countKeys(t, l, bodyKeyPrefix); n != 3 {
		t.Fatalf("%d bodies stored, want 3", n)
	}
	got, err := l.Get(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range a.Steps {
		if !bytes.Equal(got.Steps[i].Request, s.Request) || !bytes.Equal(got.Steps[i].Reply, s.Reply) {
			t.Errorf("step %d: got %s / %s, want %s / %s", i, got.Steps[i].Request, got.Steps[i].Reply, s.Request, s.Reply)
		}
	}
	runs, err := l.List(0)
	if err != nil || len(runs) != 2 {
		t.Fatalf("list: %v %d", err, len(runs))
	}
	if len(runs[0].Steps[0].Request) != 0 {
		t.Fatal("List loaded the bodies")
	}
}

func TestRunLogReportsADamagedBody(t *testing.T) {
	l, err := OpenRunLog(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	run := bodiedRun("r")
	if err := l.Put(run); err != nil {
		t.Fatal(err)
	}
	key := []byte(bodyKeyPrefix + digest(run.Steps[1].Request))
	if err := l.db.Update(func(txn *badger.Txn) error { return txn.Set(key, []byte(`{"shared":false}`)) }); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Get("r"); err == nil || !bytes.Contains([]byte(err.Error()), []byte("does not match its digest")) {
		t.Fatalf("damaged body: %v", err)
	}
	if err := l.db.Update(func(txn *badger.Txn) error { return txn.Delete(key) }); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Get("r"); err == nil || !bytes.Contains([]byte(err.Error()), []byte("missing")) {
		t.Fatalf("missing body: %v", err)
	}
}

// TestRunLogReadsVersion1Records stores testdata/v1_run.json the way
// version 1 did (the run's JSON under its key) and reads it back.
func TestRunLogReadsVersion1Records(t *testing.T) {
	data, err := os.ReadFile("testdata/v1_run.json")
	if err != nil {
		t.Fatal(err)
	}
	l, err := OpenRunLog(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	const id = "20260101T000000-v1"
	if err := l.db.Update(func(txn *badger.Txn) error { return txn.Set([]byte(runKeyPrefix+id), data) }); err != nil {
		t.Fatal(err)
	}
	run, err := l.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	if run.Task != "2+2?" || len(run.Steps) != 4 || run.Steps[1].Response != `\boxed{4}` || run.Totals.USD != 0.003 {
		t.Fatalf("v1 run %+v", run)
	}
	runs, err := l.List(0)
	if err != nil || len(runs) != 1 || runs[0].ID != id {
		t.Fatalf("list: %v %v", err, runs)
	}
	if tr := ExportTrajectory(run); tr.Source != SourceTrace || len(tr.Messages) != 5 {
		t.Fatalf("v1 export: %s, %d messages", tr.Source, len(tr.Messages))
	}
	if _, err := FirstRequest(run); !errors.Is(err, ErrNoBodies) {
		t.Fatalf("replaying a v1 run: %v", err)
	}
}

func TestDecodeRecordRefusesBadRecords(t *testing.T) {
	cases := []struct {
		name, data string
	}{
		{"not json", `{"id":`},
		{"newer version", `{"log_version":3,"id":"x"}`},
		{"body of a missing step", `{"log_version":2,"id":"x","steps":[],"bodies":[{"step":0,"request":"ab"}]}`},
		{"negative step", `{"log_version":2,"id":"x","steps":[{}],"bodies":[{"step":-1}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decodeRecord([]byte(tc.data)); err == nil {
				t.Fatal("decoded")
			}
		})
	}
}

func TestFirstRequest(t *testing.T) {
	withBodies := bodiedRun("b")
	noOrchestrator := &conductor.Run{ID: "n"}
	noOrchestrator.Add(conductor.Step{Kind: conductor.StepModel, Alias: "answer-1", Request: []byte(`{}`)})
	refused := &conductor.Run{ID: "f"}
	refused.Add(conductor.Step{Kind: conductor.StepModel, Alias: "orchestrator", Error: "guard"})
	cases := []struct {
		name string
		run  *conductor.Run
		want error
	}{
		{"bodies", withBodies, nil},
		{"no orchestrator", noOrchestrator, ErrNoOrchestratorRequest},
		{"refused before sending", refused, ErrNoOrchestratorRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, err := FirstRequest(tc.run)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if tc.want == nil && !bytes.Equal(body, withBodies.Steps[0].Request) {
				t.Fatalf("body %s", body)
			}
		})
	}
}
