package events

import (
	"time"
)

// Type is one kind of event; Types combine into masks with |.
type Type uint32

// The event types.
const (
	// RunStarted: an episode began. Data is the run as it started.
	RunStarted Type = 1 << iota
	// RunStep: an episode recorded a step. Data is the step.
	RunStep
	// RunFinished: an episode ended. Data is the finished run.
	RunFinished
	// RunStored: a finished run was written to the run log. Data is the
	// run's id.
	RunStored
	// ServerChanged: a downstream server changed state. Data is its name.
	ServerChanged
	// CatalogChanged: the merged tool catalog changed. Data is nil.
	CatalogChanged
	// IngestProgress: document ingest made progress. Data is the ingest's
	// own progress value.
	IngestProgress
	// PreferencesChanged: the preferences in force changed. Data is nil.
	PreferencesChanged

	// AllTypes matches every type.
	AllTypes Type = ^Type(0)
	// RunEvents matches the events of an episode.
	RunEvents = RunStarted | RunStep | RunFinished | RunStored
)

var typeNames = map[Type]string{
	RunStarted: "run_started", RunStep: "run_step", RunFinished: "run_finished", RunStored: "run_stored",
	ServerChanged: "server_changed", CatalogChanged: "catalog_changed", IngestProgress: "ingest_progress",
	PreferencesChanged: "preferences_changed",
}

// String names a single type.
func (t Type) String() string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return "unknown"
}

// Event is one thing that happened.
type Event struct {
	// ID is the event's place on the bus: 1 for the first, then one more
	// for each. Readers resume from the last id they saw.
	ID   int64
	Time time.Time
	Type Type
	// Subject narrows the event to one thing: the run id of a run event,
	// the server name of a server event; "" when the event is about no one
	// thing.
	Subject string
	// Data is the payload; its type is documented with each Type.
	Data any
}
