package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolhub/toolhub/events"
)

// ingestEvents returns the IngestEvents published on bus, in order.
func ingestEvents(t *testing.T, bus *events.Bus) []IngestEvent {
	t.Helper()
	var out []IngestEvent
	for _, e := range bus.Since(0, events.IngestProgress) {
		ie, ok := e.Data.(IngestEvent)
		if !ok || e.Subject != ie.ID {
			t.Fatalf("ingest event %+v", e)
		}
		out = append(out, ie)
	}
	return out
}

// An ingest, from the desktop (Ingest) or from an MCP client
// (index_documents), announces each file and its end on the bus under one
// id, so that any window or client can follow it.
func TestIngestIsAnnouncedOnTheBus(t *testing.T) {
	cases := []struct {
		name   string
		ingest func(t *testing.T, d *Documents, root string)
	}{
		{"Ingest", func(t *testing.T, d *Documents, root string) {
			if _, err := d.Ingest(t.Context(), "ingest-test", []string{root}); err != nil {
				t.Fatal(err)
			}
		}},
		{"index_documents", func(t *testing.T, d *Documents, root string) {
			if res := call(t, d, "index_documents", map[string]any{"path": root}); res.IsError {
				t.Fatalf("index_documents failed: %+v", res.Content)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bus := events.New(events.Options{})
			d, root := newProviderWith(t, DocumentsOptions{Events: bus})
			if err := os.WriteFile(filepath.Join(root, "second.md"), []byte("# Second\n\nAnother note.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.ingest(t, d, root)
			evs := ingestEvents(t, bus)
			if len(evs) < 3 {
				t.Fatalf("%d ingest events, want one per file and an end: %+v", len(evs), evs)
			}
			end := evs[len(evs)-1]
			if !end.Finished || end.Err != "" || end.Report.Indexed != 2 {
				t.Fatalf("the last event is %+v, want the end of an ingest of 2 files", end)
			}
			files := map[string]bool{}
			for _, e := range evs[:len(evs)-1] {
				if e.Finished || e.ID != end.ID {
					t.Fatalf("event %+v is not a step of ingest %s", e, end.ID)
				}
				if e.Path != "" {
					files[filepath.Base(e.Path)] = true
				}
			}
			if !files["retries.md"] || !files["second.md"] {
				t.Fatalf("steps named %v, want both files", files)
			}
		})
	}
}
