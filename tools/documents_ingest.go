package tools

import (
	"context"
	"crypto/rand"
	"encoding/hex"

	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/retriever"
)

// Publisher is where ingest progress is announced; *events.Bus is one.
type Publisher interface {
	Publish(t events.Type, subject string, data any) events.Event
}

// IngestEvent is the data of an events.IngestProgress event: one step of
// an ingest, or with Finished set its end and report.
type IngestEvent struct {
	// ID names the ingest; it is also the event's subject.
	ID string
	retriever.Event
	Finished bool
	Report   retriever.IngestReport
	// Err says why the ingest stopped early; "" when it ran to the end.
	Err string
}

// NewIngestID makes a fresh ingest id for Ingest.
func NewIngestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "ingest-" + hex.EncodeToString(b[:])
}

// ingest runs one ingest of already-confined paths on ix, announcing its
// steps and its end.
func (d *Documents) ingest(ctx context.Context, ix *retriever.Index, id string, paths []string) (retriever.IngestReport, error) {
	rep, err := ix.IngestPaths(ctx, paths, retriever.IngestOptions{
		Exclude: d.opts.Exclude, MaxFileBytes: d.opts.MaxFileBytes,
		Progress: func(e retriever.Event) { d.announce(IngestEvent{ID: id, Event: e}) },
	})
	end := IngestEvent{ID: id, Finished: true, Report: rep}
	if err != nil {
		end.Err = err.Error()
	}
	d.announce(end)
	return rep, err
}

func (d *Documents) announce(e IngestEvent) {
	if d.opts.Events != nil {
		d.opts.Events.Publish(events.IngestProgress, e.ID, e)
	}
}
