package desktop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

// TestInvalidPreferencesFileIsShown: a preferences.json edited outside the
// app into something invalid is said so on the Preferences tab (the last
// valid preferences stay in force), and its repair is said too.
func TestInvalidPreferencesFileIsShown(t *testing.T) {
	orch := scriptedmodel.New()
	defer orch.Close()
	e := newEnv(t, orch)
	path := filepath.Join(e.dir, policies.PreferencesFile)
	if err := os.WriteFile(path, []byte(`{"privacy": "nowhere"`), 0o600); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the problem banner", func() bool { return strings.HasPrefix(e.desk.Prefs.Status.Text, "The preferences file has a problem") })
	if !strings.Contains(e.desk.Prefs.Status.Text, "last valid preferences stay in force") {
		t.Fatalf("banner %q", e.desk.Prefs.Status.Text)
	}
	data, err := policies.EncodePreferences(e.store.Current())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the repair", func() bool { return e.desk.Prefs.Status.Text == "The preferences file is valid again" })
}
