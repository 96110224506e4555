package retriever

import "time"

// EventKind names a step of an ingest.
type EventKind string

// Ingest events, in the order a file can see them.
const (
	EventScanned   EventKind = "scanned"   // the walk is over; Total is the number of files
	EventIndexed   EventKind = "indexed"   // a new or changed document is searchable
	EventUnchanged EventKind = "unchanged" // same content hash as indexed: skipped
	EventSkipped   EventKind = "skipped"   // not indexed on purpose (binary, too big...): Reason says why
	EventFailed    EventKind = "failed"    // could not be read or parsed: Reason says why
	EventRemoved   EventKind = "removed"   // gone from disk (or now excluded): dropped from the index
	EventEmbedded  EventKind = "embedded"  // a batch of chunk vectors was stored; Done/Total count chunks
	EventDone      EventKind = "done"      // the ingest is over
)

// Event reports ingest progress. Done and Total count documents, except
// for EventEmbedded where they count chunks.
type Event struct {
	Kind   EventKind `json:"kind"`
	Path   string    `json:"path,omitempty"`
	Reason string    `json:"reason,omitempty"`
	Chunks int       `json:"chunks,omitempty"`
	Done   int       `json:"done"`
	Total  int       `json:"total"`
}

// IngestOptions tune one ingest.
type IngestOptions struct {
	// Workers read and parse files in parallel; default GOMAXPROCS.
	Workers int
	// Exclude holds .gitignore-style patterns applied under every root, on
	// top of the .gitignore files found there; they take precedence.
	Exclude []string
	// MaxFileBytes skips larger files; default DefaultMaxFileBytes.
	MaxFileBytes int64
	// Progress, when set, receives every event, from one goroutine at a time.
	Progress func(Event)
}

// Problem is a file that was skipped or failed, with the reason.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Failed bool   `json:"failed"`
}

// IngestReport sums up an ingest.
type IngestReport struct {
	Scanned   int `json:"scanned"`
	Indexed   int `json:"indexed"`
	Unchanged int `json:"unchanged"`
	Skipped   int `json:"skipped"`
	Failed    int `json:"failed"`
	Removed   int `json:"removed"`
	Chunks    int `json:"chunks"`   // chunks written for new or changed documents
	Embedded  int `json:"embedded"` // chunk vectors written
	// Unembedded counts committed chunks still without a vector after the
	// ingest: outside the paths given, or not computed because of an error.
	// An ingest with no paths computes them all.
	Unembedded int `json:"unembedded,omitempty"`
	// EmbedError is set when vectors could not be computed; the text is
	// indexed regardless and the next ingest tries the vectors again.
	EmbedError string        `json:"embed_error,omitempty"`
	Problems   []Problem     `json:"problems,omitempty"`
	Duration   time.Duration `json:"duration_ns"`
}

// Document is a unit of text handed to IngestDocuments directly.
type Document struct {
	// Path identifies the document; the path-prefix filter applies to it.
	Path  string `json:"path"`
	Title string `json:"title,omitempty"`
	Text  string `json:"text"`
	// Kind is KindMarkdown to chunk along headings; anything else is text.
	Kind string `json:"kind,omitempty"`
}

// tally counts events into a report and forwards them.
type tally struct {
	report   IngestReport
	total    int
	done     int
	progress func(Event)
}

func (t *tally) emit(ev Event) {
	switch ev.Kind {
	case EventIndexed:
		t.report.Indexed++
		t.report.Chunks += ev.Chunks
	case EventUnchanged:
		t.report.Unchanged++
	case EventSkipped:
		t.report.Skipped++
		t.report.Problems = append(t.report.Problems, Problem{Path: DisplayPath(ev.Path), Reason: ev.Reason})
	case EventFailed:
		t.report.Failed++
		t.report.Problems = append(t.report.Problems, Problem{Path: DisplayPath(ev.Path), Reason: ev.Reason, Failed: true})
	case EventRemoved:
		t.report.Removed++
	}
	switch ev.Kind {
	case EventIndexed, EventUnchanged, EventSkipped, EventFailed:
		t.done++
	}
	if ev.Kind != EventEmbedded {
		ev.Done, ev.Total = t.done, t.total
	}
	if t.progress != nil {
		t.progress(ev)
	}
}
