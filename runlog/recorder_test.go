package runlog

import (
	"context"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/events"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRecorderStoresEveryFinishedRunAndSaysSo(t *testing.T) {
	dir := t.TempDir()
	bus := events.New(events.Options{})
	rec := NewRecorder(dir, bus, RecorderOptions{IdleClose: time.Hour})
	for _, id := range []string{"r1", "r2"} {
		bus.Publish(events.RunFinished, id, &conductor.Run{ID: id, Task: "task " + id, Status: conductor.RunAnswered})
	}
	bus.Publish(events.RunStep, "r1", conductor.Step{}) // not a finished run: ignored
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stored []string
	for last := int64(0); len(stored) < 2; {
		evs, err := bus.Wait(ctx, last, events.RunStored)
		if err != nil {
			t.Fatalf("runs stored: %v, want r1 and r2", stored)
		}
		for _, e := range evs {
			stored, last = append(stored, e.Subject), e.ID
		}
	}
	var runs []*conductor.Run
	if err := rec.View(func(l *RunLog) (err error) { runs, err = l.List(0); return err }); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("the log holds %d runs, want 2", len(runs))
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	// Closed, the log is free for another process.
	l, err := OpenRunLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := l.Get("r2")
	if err != nil || got.Task != "task r2" {
		t.Fatalf("reopened log: %+v, %v", got, err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestRecorderCloseStoresWhatAlreadyFinished(t *testing.T) {
	dir := t.TempDir()
	bus := events.New(events.Options{})
	rec := NewRecorder(dir, bus, RecorderOptions{})
	bus.Publish(events.RunFinished, "late", &conductor.Run{ID: "late", Status: conductor.RunNoAnswer})
	if err := rec.Close(); err != nil { // the run is still queued: Close drains it
		t.Fatal(err)
	}
	l, err := OpenRunLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Get("late"); err != nil {
		t.Fatalf("the run finished before Close was not stored: %v", err)
	}
}
