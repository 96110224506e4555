package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// TestGuideSavesAModelTheNextRunUses: the setup guide tests a model server,
// writes it to the config file, and the next run's orchestrator requests go
// to it, with no restart.
func TestGuideSavesAModelTheNextRunUses(t *testing.T) {
	old := scriptedmodel.New()
	defer old.Close()
	e := newEnv(t, old)
	fresh := scriptedmodel.New(scriptedmodel.RawTextReply("done"))
	fresh.SetLoop(true)
	fresh.SetModel("orch-fresh")
	defer fresh.Close()

	e.desk.Guide.Open()
	m := e.desk.Guide.Model
	m.URL.SetText(fresh.URL() + "/v1")
	test.Tap(m.Test)
	e.waitFor("the test", func() bool { return strings.HasPrefix(m.Result.Text, "✓") || strings.HasPrefix(m.Result.Text, "✗") })
	if !strings.Contains(m.Result.Text, "orch-fresh") {
		t.Fatalf("test result %q does not list the served model", m.Result.Text)
	}
	m.Model.SetText("orch-fresh")
	test.Tap(m.Save)
	e.waitFor("saved", func() bool {
		return strings.HasPrefix(m.Result.Text, "✓ Saved") || strings.HasPrefix(m.Result.Text, "✗")
	})
	if !strings.HasPrefix(m.Result.Text, "✓ Saved") {
		t.Fatalf("save: %s", m.Result.Text)
	}
	data, err := os.ReadFile(filepath.Join(e.dir, "toolhub.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), fresh.URL()+"/v1") || !strings.Contains(string(data), `"model": "orch-fresh"`) {
		t.Fatalf("config not written:\n%s", data)
	}
	e.runTask("what is new")
	if len(fresh.Requests()) == 0 {
		t.Fatal("the run did not ask the saved orchestrator")
	}
	if n := len(old.Requests()); n != 0 {
		t.Fatalf("the old orchestrator still got %d requests", n)
	}
}

// The guide opened from Help starts from the orchestrator in use.
func TestGuideShowsTheOrchestratorInUse(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	e := newEnv(t, orch)
	e.desk.Guide.Open()
	m := e.desk.Guide.Model
	e.waitFor("the orchestrator in use", func() bool { return m.URL.Text == orch.URL()+"/v1" })
	if m.Model.Text != config.DefaultOrchestratorModel {
		t.Fatalf("model %q", m.Model.Text)
	}
}
