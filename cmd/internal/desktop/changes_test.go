package desktop

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// What changes behind the window without the window's doing (a server
// stopped through the hub, preferences saved by another process, a run
// made by an MCP client) reaches it through the daemon's event bus; the
// window does not poll (the env probes health once an hour).
func TestWindowFollowsChangesMadeElsewhere(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.RawTextReply("done"))
	defer orch.Close()
	e := newEnv(t, orch)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	if err := e.daemon.Hub().SetEnabled(ctx, "web", false); err != nil {
		t.Fatal(err)
	}
	e.waitFor("web shown as disabled", func() bool {
		r := e.desk.Servers.Rows["web"]
		return r != nil && strings.Contains(r.Title.Text, "disabled")
	})
	e.waitFor("web's tool gone from the preview", func() bool {
		return !strings.Contains(e.desk.Prefs.Allowed.Text, "web__fetch") &&
			strings.Contains(e.desk.Prefs.Allowed.Text, "notes__lookup")
	})

	other := openStore(t, filepath.Join(e.dir, policies.PreferencesFile))
	p := other.Current()
	p.CostWeight = 0.9
	if err := other.Save(p); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the other process's cost weight", func() bool {
		return e.desk.Prefs.Cost.Value == 0.9 && e.desk.Prefs.Status.Text == "Preferences changed outside the app"
	})

	if _, err := e.daemon.RunEpisode(ctx, conductor.Request{Task: "asked by an MCP client", Mode: conductor.ModeTools}); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the client's run in the history", func() bool {
		return slices.Contains(e.desk.Runs.History.Tasks(), "asked by an MCP client")
	})
}
