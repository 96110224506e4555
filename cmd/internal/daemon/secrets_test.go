package daemon

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFileSecrets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "conf")
	s, err := OpenSecrets(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("a"); !errors.Is(err, ErrSecretNotFound) {
		t.Fatalf("Get before any Set: %v", err)
	}
	if err := s.Set("oauth:a", `{"token":"x"}`); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("b", "2"); err != nil {
		t.Fatal(err)
	}
	// Another process opening the same directory sees the values.
	other, _ := OpenSecrets(dir)
	if v, err := other.Get("oauth:a"); err != nil || v != `{"token":"x"}` {
		t.Fatalf("Get = %q, %v", v, err)
	}
	info, err := os.Stat(filepath.Join(dir, "secrets.json"))
	if err != nil {
		t.Fatal(err)
	}
	if runtimeChecksMode() && info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	if err := s.Delete("b"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("b"); !errors.Is(err, ErrSecretNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	if names, _ := s.Names(); !slices.Equal(names, []string{"oauth:a"}) {
		t.Errorf("Names = %q", names)
	}
	if !strings.Contains(s.Backend(), filepath.Join(dir, "secrets.json")) {
		t.Errorf("Backend = %q", s.Backend())
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets.json"), []byte(`{"k": "super-secret-value", oops`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("k"); err == nil || strings.Contains(err.Error(), "super-secret-value") {
		t.Errorf("a damaged file: %v", err)
	}
}
