package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/ui"
)

func TestSliderWritesPreferencesAndTheHubFollows(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	e := newEnv(t, orch)
	path := filepath.Join(e.dir, policies.PreferencesFile)
	// A second store on the same file stands for a separately running `toolhub serve`.
	other := openStore(t, path)
	e.desk.Prefs.Cost.SetValue(0.8)
	e.waitFor("saved", func() bool { return strings.HasPrefix(e.desk.Prefs.Status.Text, "Saved") })
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := policies.ParsePreferences(path, data)
	if err != nil || onDisk.CostWeight != 0.8 {
		t.Fatalf("file holds %+v, %v; want cost weight 0.8", onDisk, err)
	}
	if got := e.daemon.Planner().Preferences().CostWeight; got != 0.8 {
		t.Fatalf("the daemon's episodes use cost weight %v, want 0.8", got)
	}
	deadline := time.Now().Add(10 * time.Second)
	for other.Current().CostWeight != 0.8 {
		if time.Now().After(deadline) {
			t.Fatalf("the other process's store still has %+v", other.Current())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestLocalOnlyRemovesRemoteToolsFromWhatTheOrchestratorIsOffered(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.RawTextReply("done"), scriptedmodel.RawTextReply("done"))
	defer orch.Close()
	e := newEnv(t, orch)
	if !strings.Contains(e.desk.Prefs.Allowed.Text, "web__fetch") {
		t.Fatalf("remote tool not allowed before local-only: %q", e.desk.Prefs.Allowed.Text)
	}
	e.runTask("before local-only")
	e.desk.Prefs.Privacy.SetSelected(privacyLabel(t, e.desk, "Local only"))
	e.waitFor("saved", func() bool { return strings.HasPrefix(e.desk.Prefs.Status.Text, "Saved") })
	if strings.Contains(e.desk.Prefs.Allowed.Text, "web__fetch") || !strings.Contains(e.desk.Prefs.Allowed.Text, "notes__lookup") {
		t.Fatalf("preview under local-only: %q", e.desk.Prefs.Allowed.Text)
	}
	if !e.desk.Header.LocalOnly.Visible() {
		t.Fatal("no local-only badge")
	}
	e.runTask("after local-only")
	reqs := orch.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the orchestrator got %d requests, want 2", len(reqs))
	}
	if !strings.Contains(string(reqs[0]), "web__fetch") {
		t.Fatal("the remote tool was not offered before local-only")
	}
	if strings.Contains(string(reqs[1]), "web__fetch") || !strings.Contains(string(reqs[1]), "notes__lookup") {
		t.Fatalf("offered under local-only: %s", reqs[1])
	}
}

func TestScriptedRunShowsStepsLiveAndCancels(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "notes__lookup", `{"q": "launch"}`),
		scriptedmodel.RawTextReply("too late").WithDelay(10*time.Minute))
	defer orch.Close()
	e := newEnv(t, orch)
	test.Type(e.desk.Runs.Task, "when is the launch")
	test.Tap(e.desk.Runs.RunButton)
	e.waitFor("the tool step live", func() bool { return stepShown(e.desk, "notes__lookup") })
	if e.desk.Runs.CancelBtn.Disabled() {
		t.Fatal("cancel disabled while running")
	}
	test.Tap(e.desk.Runs.CancelBtn)
	e.waitFor("cancelled", func() bool { return strings.HasPrefix(e.desk.Runs.State.Text, "cancelled") })
	e.waitFor("history", func() bool { return e.desk.Runs.History.List.Length() == 1 })
	runs, err := e.backend.History(t.Context(), "launch", 10)
	if err != nil || len(runs) != 1 || runs[0].Status != "cancelled" {
		t.Fatalf("history = %+v, %v", runs, err)
	}
}

// runTask runs task through the Runs tab and waits for its end.
func (e *env) runTask(task string) {
	e.t.Helper()
	e.desk.Runs.Task.SetText(task)
	test.Tap(e.desk.Runs.RunButton)
	e.waitFor("run "+task, func() bool { return !e.desk.Runs.RunButton.Disabled() && e.desk.Runs.Answer.Text != "" })
}

func stepShown(d *ui.Desktop, name string) bool {
	for _, r := range d.Runs.StepRows {
		if strings.Contains(r.Summary.Text, name) {
			return true
		}
	}
	return false
}

func privacyLabel(t *testing.T, d *ui.Desktop, prefix string) string {
	t.Helper()
	for _, o := range d.Prefs.Privacy.Options {
		if strings.HasPrefix(o, prefix) {
			return o
		}
	}
	t.Fatalf("no privacy option starting %q", prefix)
	return ""
}
