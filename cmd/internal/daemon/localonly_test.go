package daemon_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/internal/testenv"
	"github.com/toolhub/toolhub/policies"
)

// With local-only saved, `toolhub serve` contacts no remote server at all
// (not even initialize); when the preferences change it connects them, and
// disconnects them again when local-only comes back.
func TestLocalOnlyPreferencesKeepRemoteServersUncontacted(t *testing.T) {
	dir := t.TempDir()
	url, hits := testenv.CountingMCPServer(t, "fetch")
	cfgPath := filepath.Join(dir, "config.json")
	cfgText := fmt.Sprintf(`{"mcpServers": {"web": {"url": %q, "locality": "remote"}}}`, url)
	if err := os.WriteFile(cfgPath, []byte(cfgText), 0o600); err != nil {
		t.Fatal(err)
	}
	prefsPath := filepath.Join(dir, policies.PreferencesFile)
	if err := os.WriteFile(prefsPath, []byte(`{"privacy": "local-only"}`), 0o600); err != nil {
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
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	d.Start(ctx)
	if err := d.Hub().WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the remote server got %d requests under local-only", n)
	}
	if st := serverState(d, "web"); st != hub.StateLocalOnly {
		t.Fatalf("remote server %s, want %s", st, hub.StateLocalOnly)
	}

	save := func(p policies.Preferences) {
		t.Helper()
		if err := d.Preferences().Save(p); err != nil {
			t.Fatal(err)
		}
	}
	p := d.Preferences().Current()
	p.Privacy = policies.PrivacyAny
	save(p)
	waitFor(t, "the remote tool once local-only was lifted", func() bool {
		_, ok := d.Hub().Snapshot().Lookup("web__fetch")
		return ok
	})
	p.Privacy = policies.PrivacyLocalOnly
	save(p)
	waitFor(t, "the remote server held again", func() bool { return serverState(d, "web") == hub.StateLocalOnly })
	if _, ok := d.Hub().Snapshot().Lookup("web__fetch"); ok {
		t.Fatal("the remote tool is still offered under local-only")
	}
}

func serverState(d *daemon.Daemon, name string) hub.ServerState {
	for _, st := range d.Hub().Servers() {
		if st.Name == name {
			return st.State
		}
	}
	return ""
}
