package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestLocate(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		flag, env  string
		xdg        string
		wantPath   string
		wantSource string
	}{
		{"flag wins", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), dir, filepath.Join(dir, "a.json"), SourceFlag},
		{"env next", "", filepath.Join(dir, "b.json"), dir, filepath.Join(dir, "b.json"), SourceEnv},
		{"default last", "", "", filepath.Join(dir, "xdg"), filepath.Join(dir, "xdg", "toolhub", "config.json"), SourceDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvVar, tt.env)
			t.Setenv("XDG_CONFIG_HOME", tt.xdg)
			path, source, err := Locate(tt.flag)
			if err != nil {
				t.Fatal(err)
			}
			xdgApplies := runtime.GOOS != "darwin" && runtime.GOOS != "windows"
			if source != tt.wantSource || (path != tt.wantPath && (source != SourceDefault || xdgApplies)) {
				t.Errorf("Locate = %q %q, want %q %q", path, source, tt.wantPath, tt.wantSource)
			}
		})
	}
}

func TestLocateMakesPathsAbsolute(t *testing.T) {
	t.Setenv(EnvVar, "")
	path, _, err := Locate("rel.json")
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(path) || filepath.Base(path) != "rel.json" {
		t.Errorf("path %q", path)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.json")
	good := filepath.Join(dir, "good.json")
	bad := filepath.Join(dir, "bad.json")
	writeFile(t, good, `{"mcpServers": {"a": {"command": "x"}}}`)
	writeFile(t, bad, `{"mcpServers": {"a": {}}}`)

	f, err := Load(missing, SourceDefault)
	if err != nil || len(f.MCPServers) != 0 || f.Path != missing {
		t.Errorf("missing default: %+v, %v; want an empty config", f, err)
	}
	for _, source := range []string{SourceFlag, SourceEnv} {
		if _, err := Load(missing, source); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("missing from %s: %v, want fs.ErrNotExist", source, err)
		}
	}
	if f, err := Load(good, SourceFlag); err != nil || f.MCPServers["a"].Command != "x" || f.Path != good {
		t.Errorf("good: %+v, %v", f, err)
	}
	var pe *ProblemsError
	if _, err := Load(bad, SourceDefault); !errors.As(err, &pe) || pe.Problems[0].File != bad {
		t.Errorf("bad: %v, want problems naming the file", err)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
