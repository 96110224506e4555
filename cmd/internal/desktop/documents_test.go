package desktop

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/retriever"
	"github.com/toolhub/toolhub/ui"
)

// TestIngestPickedFolder ingests a folder the user picked outside the
// configured roots: it becomes a root (in the running daemon and in the
// config file), progress counts its files, and the index figures show it.
func TestIngestPickedFolder(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "notes")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.md": "# Launch\nOctober 3.", "b.txt": "The migration comes first."} {
		if err := os.WriteFile(filepath.Join(folder, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfgPath := filepath.Join(dir, "toolhub.json")
	if err := os.WriteFile(cfgPath, []byte("{\n  // no roots yet\n  \"mcpServers\": {}\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: log, NoConductor: true,
		OpenIndex: func(context.Context) (*retriever.Index, error) {
			return retriever.Open(filepath.Join(dir, "index"), retriever.Options{Logger: log})
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b := New(Options{Daemon: d, Config: cfg, Logger: log})
	defer b.Close()

	var mu sync.Mutex
	var seen []ui.IngestProgress
	sum, err := b.Ingest(t.Context(), []string{folder}, func(p ui.IngestProgress) {
		mu.Lock()
		seen = append(seen, p)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Indexed != 2 {
		t.Errorf("indexed %d files, want 2", sum.Indexed)
	}
	last := seen[len(seen)-1]
	if last.Total != 2 || last.Done != 2 {
		t.Errorf("last progress %+v, want 2 of 2 files", last)
	}
	roots, _ := b.DocumentRoots(t.Context())
	if !slices.Contains(roots, folder) {
		t.Errorf("roots %v lack the picked folder", roots)
	}
	saved, err := config.Load(cfgPath, config.SourceFlag)
	if err != nil || !slices.Contains(saved.Documents.Roots, folder) {
		t.Errorf("the config's roots %v lack the picked folder (%v)", saved.Documents.Roots, err)
	}
	st, err := b.IndexStats(t.Context())
	if err != nil || st.Documents != 2 || st.Chunks < 2 || st.Bytes <= 0 {
		t.Errorf("index figures %+v, %v", st, err)
	}
}
