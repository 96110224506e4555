package daemon_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
)

// A model entry, an orchestrator key, a webSearch section and a documents
// section with problems, and another program's top-level key, are left
// out, each logged with where it stands; the daemon starts with the rest:
// the good model, the orchestrator's other keys.
func TestBadModelEntriesLeaveTheRestRunning(t *testing.T) {
	cfgPath := filepath.Join(t.TempDir(), "config.json")
	src := `{
  "mcpServers": {},
  "models": {
    "good": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m"},
    "bad": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m", "roles": ["answr"]}
  },
  "orchestrator": {"baseUrl": "http://127.0.0.1:7/v1", "variant": "gaia"},
  "webSearch": {"provider": "bing"},
  "documents": {"roots": ["/nowhere"], "exclude": ["[unclosed"]},
  "globalShortcut": "Ctrl+Space"
}`
	if err := os.WriteFile(cfgPath, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadServe(cfgPath, config.SourceFlag)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	d, err := daemon.New(daemon.Options{Config: cfg, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	if err != nil {
		t.Fatalf("a bad model entry took the daemon down: %v", err)
	}
	defer d.Close()

	if got := modelNames(d); got != "orchestrator,good" {
		t.Errorf("models %q, want the orchestrator and the good entry", got)
	}
	if o, _ := d.Engine().Models().Get("orchestrator"); o == nil || o.Endpoint().BaseURL != "http://127.0.0.1:7/v1" {
		t.Errorf("the orchestrator lost its baseUrl for a bad variant: %+v", o)
	}
	if len(cfg.Documents.Roots) != 0 {
		t.Errorf("a documents section with a bad exclude pattern still gives roots %v", cfg.Documents.Roots)
	}
	for _, line := range []string{"5", "7", "8", "9", "10"} {
		if !loggedProblemAt(t, &logs, cfgPath+":"+line+":") {
			t.Errorf("no problem logged at %s:%s in\n%s", cfgPath, line, logs.String())
		}
	}

	// A reload reads the models the same way: the good entries apply.
	src = `{"models": {"fresh": {"baseUrl": "http://127.0.0.1:9/v1", "model": "m"}, "worse": {"model": 1}}}`
	if err := config.WriteFileAtomic(cfgPath, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	logs.Reset()
	if _, err := d.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := modelNames(d); got != "orchestrator,fresh" {
		t.Errorf("models after the reload %q, want the orchestrator and the fresh entry", got)
	}
	if !loggedProblemAt(t, &logs, cfgPath+":1:") {
		t.Errorf("the reload logged no problem at %s:1 in\n%s", cfgPath, logs.String())
	}
}

// loggedProblemAt reports whether a JSON log line's "problem" starts with
// at (a path's backslashes are escaped in the line, not in the value).
func loggedProblemAt(t *testing.T, logs *bytes.Buffer, at string) bool {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec struct{ Problem string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if strings.HasPrefix(rec.Problem, at) {
			return true
		}
	}
	return false
}

func modelNames(d *daemon.Daemon) string {
	var names []string
	for _, m := range d.Engine().Models().List() {
		names = append(names, m.Name)
	}
	return strings.Join(names, ",")
}
