package policies

import (
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// waitLimit bounds every wait for the file watch; reaching it is a
// failure, not a measurement.
const waitLimit = 10 * time.Second

// watchedStore opens a store on dir/preferences.json whose reload errors
// and changes arrive on channels.
func watchedStore(t *testing.T, dir string) (*Store, <-chan error, <-chan Preferences) {
	t.Helper()
	errs := make(chan error, 8)
	changes := make(chan Preferences, 8)
	s, err := OpenStore(filepath.Join(dir, PreferencesFile), StoreOptions{
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
		Debounce: 20 * time.Millisecond,
		OnError:  func(err error) { errs <- err },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	cancel := s.Subscribe(func(p Preferences) { changes <- p })
	t.Cleanup(cancel)
	return s, errs, changes
}

func TestStoreMissingFileGivesDefaults(t *testing.T) {
	s, _, _ := watchedStore(t, t.TempDir())
	if !s.Current().equal(DefaultPreferences()) || s.Err() != nil {
		t.Fatalf("current %+v, err %v", s.Current(), s.Err())
	}
}

func TestStoreSaveWritesAtomically(t *testing.T) {
	dir := t.TempDir()
	s, _, changes := watchedStore(t, dir)
	p := DefaultPreferences()
	p.Privacy, p.BudgetUSD = PrivacyLocalOnly, 0.5
	if err := s.Save(p); err != nil {
		t.Fatal(err)
	}
	if got := <-changes; !got.equal(p) {
		t.Fatalf("subscriber got %+v", got)
	}
	info, err := os.Stat(s.Path())
	if err != nil || runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 { // Windows keeps no mode bits
		t.Fatalf("file mode %v, %v", info.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	reopened, err := OpenStore(s.Path(), StoreOptions{NoWatch: true})
	if err != nil || !reopened.Current().equal(p) {
		t.Fatalf("reopened %+v, %v", reopened.Current(), err)
	}
	bad := p
	bad.MaxTurns = 99
	if err := s.Save(bad); err == nil || !s.Current().equal(p) {
		t.Fatalf("invalid save: err %v, current %+v", err, s.Current())
	}
}

func TestStoreReloadKeepsOldPreferencesOnInvalidFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, PreferencesFile)
	if err := os.WriteFile(path, []byte(`{"privacy": "local-only", "budget_usd": 0.1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s, errs, changes := watchedStore(t, dir)
	saved := s.Current()
	if saved.Privacy != PrivacyLocalOnly || saved.BudgetUSD != 0.1 {
		t.Fatalf("opened with %+v", saved)
	}

	// An editor writes a broken file: the old preferences stay, the error
	// names the place.
	if err := os.WriteFile(path, []byte("{\n  \"privacy\": \"any\",\n  \"budget_usd\": 0.1,,\n}"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := waitErr(t, errs)
	if !strings.Contains(err.Error(), PreferencesFile+":3:21") {
		t.Fatalf("error without file:line:col: %v", err)
	}
	if !s.Current().equal(saved) || s.Err() == nil {
		t.Fatalf("invalid file changed the preferences: %+v (err %v)", s.Current(), s.Err())
	}

	// A valid file with an invalid value: still the old preferences, the
	// error names the JSON path.
	if err := os.WriteFile(path, []byte(`{"privacy": "any", "max_turns": 80}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var ve *ValidationError
	if err := waitErr(t, errs); !errors.As(err, &ve) || ve.Problems[0].Path != "max_turns" {
		t.Fatalf("want a max_turns problem, got %v", err)
	}
	if !s.Current().equal(saved) {
		t.Fatalf("invalid value changed the preferences: %+v", s.Current())
	}

	// Each invalid file was announced to the subscribers with the
	// preferences still in force, so that they can say the file is not.
	for range 2 {
		select {
		case p := <-changes:
			if !p.equal(saved) {
				t.Fatalf("an invalid file announced %+v, want the preferences in force", p)
			}
		case <-time.After(waitLimit):
			t.Fatal("an invalid file was not announced")
		}
	}

	// Fixed: the new preferences are in force and the error is gone.
	if err := os.WriteFile(path, []byte(`{"privacy": "any", "max_turns": 8}`), 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-changes:
		if p.Privacy != PrivacyAny || p.MaxTurns != 8 || s.Err() != nil {
			t.Fatalf("reloaded %+v, err %v", p, s.Err())
		}
	case <-time.After(waitLimit):
		t.Fatal("the fixed file was not reloaded")
	}
}

func TestStoreOpenRefusesInvalidFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), PreferencesFile)
	if err := os.WriteFile(path, []byte(`{"privacy": "local"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(path, StoreOptions{NoWatch: true}); err == nil || !strings.Contains(err.Error(), "privacy") {
		t.Fatalf("want a privacy error, got %v", err)
	}
}

func TestPreferencesPath(t *testing.T) {
	if got := PreferencesPath(filepath.Join("a", "b", "config.json")); got != filepath.Join("a", "b", PreferencesFile) {
		t.Fatalf("got %q", got)
	}
	if PreferencesPath("") != "" {
		t.Fatal("a config without a file has no preferences file")
	}
}

func waitErr(t *testing.T, errs <-chan error) error {
	t.Helper()
	select {
	case err := <-errs:
		return err
	case <-time.After(waitLimit):
		t.Fatal("no reload error reported")
	}
	return nil
}
