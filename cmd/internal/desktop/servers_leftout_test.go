package desktop

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/ui"
)

// A model entry the config reader left out is still a row of the Servers
// tab: failed, with what is wrong and where, and the good entry beside it;
// once corrected in the file and read again, it is an expert like the other.
func TestServersListAModelLeftOutOfTheConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json")
	src := `{"models": {
  "good": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m"},
  "bad": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m", "roles": ["answr"]}
}}`
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	cfg, err := config.LoadServe(path, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: quiet, NoConductor: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	models, err := daemon.LoadModelsServe(cfg, quiet)
	if err != nil {
		t.Fatal(err)
	}
	b := New(Options{Daemon: d, Config: cfg, Models: models, Logger: quiet})
	defer b.Close()
	rows := serverRows(t, b)
	if _, ok := rows["good"]; !ok {
		t.Errorf("no row for the good model in %+v", rows)
	}
	bad, ok := rows["bad"]
	if !ok || bad.Kind != ui.KindModel || bad.Health != ui.HealthFailed || bad.Problem == nil {
		t.Fatalf("the left-out model's row: %+v", bad)
	}
	if !strings.Contains(bad.Problem.Summary, `line 3, column 70: models.bad.roles: unknown role "answr"`) ||
		!strings.Contains(bad.Problem.Fix, "toolhub config check") {
		t.Errorf("problem %+v", bad.Problem)
	}

	// Corrected in the file and read again, the entry is a model like the
	// other: the rows follow the daemon's models.
	fixed := strings.Replace(src, `"answr"`, `"answer"`, 1)
	if err := config.WriteFileAtomic(path, []byte(fixed), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	if bad := serverRows(t, b)["bad"]; bad.Problem != nil || strings.Contains(bad.State, "left out") {
		t.Errorf("after the fix and a reload the row is still %+v", bad)
	}
}

func serverRows(t *testing.T, b *Backend) map[string]ui.ServerInfo {
	t.Helper()
	infos, err := b.Servers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]ui.ServerInfo{}
	for _, info := range infos {
		rows[info.Name] = info
	}
	return rows
}
