package daemon_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/policies"
)

// TestPreferencesFollowTheFile checks a running daemon's episodes use the
// preferences file as it is now, and keep the last good one when it breaks.
func TestPreferencesFollowTheFile(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, []byte(`{"mcpServers": {}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.DiscardHandler), WatchPreferences: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.Planner().Preferences(); got.Privacy != policies.DefaultPreferences().Privacy {
		t.Fatalf("without a file: privacy %q, want the default", got.Privacy)
	}
	prefsPath := filepath.Join(dir, policies.PreferencesFile)
	if d.Preferences().Path() != prefsPath {
		t.Fatalf("preferences at %s, want beside the config", d.Preferences().Path())
	}
	write := func(body string) {
		if err := os.WriteFile(prefsPath, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"privacy": "local-only", "budget_usd": 0.5}`)
	waitFor(t, "local-only in force", func() bool { return d.Planner().Preferences().Privacy == policies.PrivacyLocalOnly })
	write(`{"privacy": "nowhere"}`)
	waitFor(t, "the invalid file reported", func() bool { return d.Preferences().Err() != nil })
	if got := d.Planner().Preferences(); got.Privacy != policies.PrivacyLocalOnly || got.BudgetUSD != 0.5 {
		t.Errorf("after an invalid file: %+v, want the last valid preferences", got)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
