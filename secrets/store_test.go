package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	gokeyring "github.com/zalando/go-keyring"
)

func TestMain(m *testing.M) {
	// No test may reach the real keychain: go-keyring's in-memory mock
	// stands in for it (the Store serializes its calls).
	gokeyring.MockInit()
	if dir := os.Getenv(childEnv); dir != "" {
		os.Exit(runChild(dir))
	}
	os.Exit(m.Run())
}

func TestStoreRoundTrip(t *testing.T) {
	for _, backend := range []string{BackendKeychain, BackendFile} {
		t.Run(backend, func(t *testing.T) {
			s, err := Open(Options{Dir: t.TempDir(), Backend: backend, Service: "toolhub-test-" + t.Name()})
			if err != nil {
				t.Fatal(err)
			}
			steps := []struct {
				name  string
				do    func() error
				names []string
			}{
				{"set one", func() error { return s.Set("github.GITHUB_TOKEN", "ghp_first") }, []string{"github.GITHUB_TOKEN"}},
				{"set another", func() error { return s.Set("oauth:linear", "tok") }, []string{"github.GITHUB_TOKEN", "oauth:linear"}},
				{"overwrite", func() error { return s.Set("github.GITHUB_TOKEN", "ghp_second") }, []string{"github.GITHUB_TOKEN", "oauth:linear"}},
				{"delete", func() error { return s.Delete("oauth:linear") }, []string{"github.GITHUB_TOKEN"}},
				{"delete absent", func() error { return s.Delete("oauth:linear") }, []string{"github.GITHUB_TOKEN"}},
			}
			for _, step := range steps {
				if err := step.do(); err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
				names, err := s.Names()
				if err != nil || !slices.Equal(names, step.names) {
					t.Fatalf("%s: Names() = %v, %v; want %v", step.name, names, err, step.names)
				}
			}
			if v, err := s.Get("github.GITHUB_TOKEN"); err != nil || v != "ghp_second" {
				t.Errorf("Get = %q, %v; want the overwritten value", v, err)
			}
			if _, err := s.Get("oauth:linear"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Get of a deleted secret: %v; want ErrNotFound", err)
			}
			if _, err := s.Get("never-set"); !errors.Is(err, ErrNotFound) {
				t.Errorf("Get of an unknown secret: %v; want ErrNotFound", err)
			}
		})
	}
}

func TestBadNames(t *testing.T) {
	s, err := Open(Options{Dir: t.TempDir(), Backend: BackendFile})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, in string }{
		{"empty", ""},
		{"space", "my token"},
		{"brace", "a}b"},
		{"newline", "a\nb"},
		{"too long", strings.Repeat("a", 201)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Set(tt.in, "v"); err == nil {
				t.Errorf("Set(%q) accepted the name", tt.in)
			}
			if _, err := s.Get(tt.in); err == nil || errors.Is(err, ErrNotFound) {
				t.Errorf("Get(%q) = %v; want a name error", tt.in, err)
			}
		})
	}
}

func TestKeychainKeepsOnlyNamesOnDisk(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{Dir: dir, Backend: BackendKeychain, Service: "toolhub-test-index"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("github.GITHUB_TOKEN", "ghp_valueNeverOnDisk"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, secretsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the keychain backend wrote %s (%v)", secretsFile, err)
	}
	index, err := os.ReadFile(filepath.Join(dir, indexFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(index), "ghp_valueNeverOnDisk") || !strings.Contains(string(index), "github.GITHUB_TOKEN") {
		t.Errorf("index file = %s; want the name and not the value", index)
	}
	if got := s.Backend(); !strings.HasPrefix(got, "system keychain (") {
		t.Errorf("Backend() = %q", got)
	}
}

// brokenKeyring answers every call with err.
type brokenKeyring struct{ err error }

func (b brokenKeyring) Get(string, string) (string, error) { return "", b.err }
func (b brokenKeyring) Set(string, string, string) error   { return b.err }
func (b brokenKeyring) Delete(string, string) error        { return b.err }

// silentKeyring never answers until release is closed, like go-keyring
// waiting on a D-Bus that is not there.
type silentKeyring struct{ release chan struct{} }

func (s silentKeyring) Get(string, string) (string, error) {
	<-s.release
	return "", errors.New("late")
}
func (s silentKeyring) Set(string, string, string) error { <-s.release; return errors.New("late") }
func (s silentKeyring) Delete(string, string) error      { <-s.release; return errors.New("late") }

func TestOpenChoosesBackend(t *testing.T) {
	silent := silentKeyring{release: make(chan struct{})}
	t.Cleanup(func() { close(silent.release) })
	tests := []struct {
		name    string
		backend string
		ring    keyring
		want    string // prefix of Backend(), or "error"
	}{
		{"auto with a keychain", "", systemKeyring{}, "system keychain ("},
		{"auto with a broken keychain", BackendAuto, brokenKeyring{errors.New("no dbus")}, "file "},
		{"auto with a silent keychain", BackendAuto, silent, "file "},
		{"auto where the entry is missing", BackendAuto, brokenKeyring{gokeyring.ErrNotFound}, "system keychain ("},
		{"keychain asked for and broken", BackendKeychain, brokenKeyring{errors.New("no dbus")}, "error"},
		{"keychain asked for and silent", BackendKeychain, silent, "error"},
		{"file asked for", BackendFile, systemKeyring{}, "file "},
		{"unknown backend", "vault", systemKeyring{}, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := open(Options{Dir: dir, Backend: tt.backend}, tt.ring, 5e6)
			if tt.want == "error" {
				if err == nil {
					t.Fatalf("open succeeded with %s", s.Backend())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := s.Backend()
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("Backend() = %q; want it to start %q", got, tt.want)
			}
			if tt.want == "file " && !strings.Contains(got, filepath.Join(dir, secretsFile)) {
				t.Errorf("Backend() = %q; want it to name the file", got)
			}
		})
	}
	if _, err := Open(Options{}); err == nil {
		t.Error("Open without a folder succeeded")
	}
}

func TestBackendSaysPlainlyWhyNoKeychain(t *testing.T) {
	dbus := errors.New(`exec: "dbus-launch": executable file not found in $PATH`)
	s, err := open(Options{Dir: t.TempDir()}, brokenKeyring{dbus}, 5e6)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Backend()
	want := "no D-Bus session here"
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		want = "dbus-launch"
	}
	if !strings.Contains(got, want) {
		t.Errorf("Backend() = %q; want it to say %q", got, want)
	}
	if want != "dbus-launch" && strings.Contains(got, "dbus-launch") {
		t.Errorf("Backend() = %q still carries go-keyring's words", got)
	}
}
