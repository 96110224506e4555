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
// tab: failed, with what is wrong and where, and the good entry beside it.
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
	infos, err := b.Servers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]ui.ServerInfo{}
	for _, info := range infos {
		rows[info.Name] = info
	}
	if _, ok := rows["good"]; !ok {
		t.Errorf("no row for the good model in %+v", infos)
	}
	bad, ok := rows["bad"]
	if !ok || bad.Kind != ui.KindModel || bad.Health != ui.HealthFailed || bad.Problem == nil {
		t.Fatalf("the left-out model's row: %+v", bad)
	}
	if !strings.Contains(bad.Problem.Summary, `line 3, column 70: models.bad.roles: unknown role "answr"`) ||
		!strings.Contains(bad.Problem.Fix, "toolhub config check") {
		t.Errorf("problem %+v", bad.Problem)
	}
}
